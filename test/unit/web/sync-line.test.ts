/** The market sync's status line, in both languages: coverage and as-of, the last run, failures, never synced. */
import { describe, expect, it } from "vitest";
import type { SyncStatus } from "../../../worker/contracts/market-sync";
import { STRINGS } from "../../../web/lib/strings";
import { syncLine } from "../../../web/lib/sync-line";

const tr =
  (lang: "zh" | "en") =>
  (key: keyof (typeof STRINGS)["en"], vars?: Record<string, string | number>): string =>
    STRINGS[lang][key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars?.[k] ?? `{${k}}`));

const run = {
  id: "sync_1",
  market: "CN" as const,
  status: "done" as const,
  asOf: "2026-11-30",
  universe: 5317,
  delisted: 2,
  batchesTotal: 110,
  batchesDone: 110,
  appended: 5200,
  fetched: 100,
  skipped: 12,
  failed: 3,
  requests: 160,
  error: null,
  startedAt: "2026-11-30T07:10:00.000Z",
  finishedAt: "2026-11-30T07:11:00.000Z",
  durationMs: 60_000,
};
const base: SyncStatus = {
  mode: "live",
  enabled: true,
  latest: run,
  lastCompleted: run,
  coverage: { market: "CN", universe: 5317, current: 5102, withBars: 5300, pct: 96, asOf: "2026-11-30", statement: "" },
  failures: [],
  failuresTotal: 3,
  storage: null,
};

describe("sync status line", () => {
  it("says coverage, as-of, the last run and failures, in the UI language", () => {
    const en = syncLine(base, tr("en"), "en-US");
    expect(en?.text).toMatch(
      /^Whole market: 5,102 of 5,317 symbols \(96%\), bars as of 2026-11-30 · last sync .* done · 3 failed$/,
    );
    expect(en?.tone).toBe("warn");
    const zh = syncLine(base, tr("zh"), "zh-CN");
    expect(zh?.text).toMatch(
      /^全市场行情：5,317 只中 5,102 只（96%）日线截至 2026-11-30 · 上次同步 .* 完成 · 3 只失败$/,
    );
  });

  it("says what is refused before the first sync, and a running run's progress", () => {
    const never = syncLine(
      {
        ...base,
        coverage: null,
        lastCompleted: null,
        latest: { ...run, status: "running", batchesDone: 40 },
        failuresTotal: 0,
      },
      tr("en"),
      "en-US",
    );
    expect(never?.text).toMatch(/not been synced yet.*POST \/api\/admin\/market-sync.*syncing: 40 of 110 batches$/);
    expect(never?.tone).toBe("warn");
  });

  it("is absent offline", () => {
    expect(syncLine({ ...base, enabled: false, mode: "offline" }, tr("en"), "en-US")).toBeNull();
  });
});
