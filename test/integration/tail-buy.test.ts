/**
 * The tail-buy job inside workerd with real D1, over the offline market's simulated intraday paths:
 * the job message goes through the background consumer, each owner's latest recommendation list is
 * read intraday, decisions with their score and reason are stored once per owner, day and symbol
 * (a re-run replaces them), and `query_history source=tail_buy` returns them, filtered by decision.
 */
import { describe, expect, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createBackgroundPort } from "../../worker/background/background-port";
import { createBackgroundHandlers } from "../../worker/background/handlers";
import { createQueueConsumer, type ConsumedMessage } from "../../worker/background/queue-consumer";
import { shanghaiDate, tailBuyDecision } from "../../worker/background/tail-buy";
import type { TailBuyRow } from "../../worker/contracts/history";
import { backgroundDeps } from "../../worker/coordinator/background-wiring";
import { createLogger } from "../../worker/lib/log";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import { createDb } from "../../worker/storage/db";
import { D1HistoryRepo } from "../../worker/storage/history-repo";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { testEnv } from "./test-env";

const silent = createLogger(() => {});
const db = createDb(testEnv.DB);

async function runJob(now: number): Promise<{ acked: boolean }> {
  const deps = backgroundDeps(testEnv, { log: silent, now: () => now });
  const outcome = { acked: false };
  const message: ConsumedMessage = {
    id: crypto.randomUUID(),
    attempts: 1,
    body: { kind: "tailbuy.run" },
    ack: () => void (outcome.acked = true),
    retry: () => {},
  };
  await createQueueConsumer(createBackgroundHandlers(deps))(
    { queue: "wyckoff-edge-background", messages: [message] },
    { send: async () => {} },
    silent,
  );
  return outcome;
}

describe("tail-buy job (offline market, real D1)", () => {
  it("stores a decision per recommended symbol and query_history returns them", async () => {
    const bundle = buildOfflineBundle({ sp500Csv });
    const cache = new D1MarketCache(db);
    const picked = ["SIM.0001", "SIM.0002", "SIM.0003", "SIM.0004"];
    await cache.upsertSymbols(
      bundle.symbols.filter((s) => picked.includes(s.id)),
      0,
    );
    for (const s of bundle.series.filter((x) => picked.includes(x.symbolId))) await cache.putSeries(s);
    const history = new D1HistoryRepo(db);
    // An older list and the latest one: only the latest is read.
    await history.addRecommendations(
      "local",
      [
        {
          taskId: "task_old",
          code: "SIM.0004",
          name: "old",
          recommendDate: "2026-11-20",
          recommendPrice: 10,
          camp: null,
        },
      ],
      1,
    );
    await history.addRecommendations(
      "local",
      picked.slice(0, 3).map((code) => ({
        taskId: "task_new",
        code,
        name: code,
        recommendDate: "2026-11-30",
        recommendPrice: 10,
        camp: "A",
      })),
      2,
    );
    const now = Date.parse("2026-12-01T06:30:00Z");
    expect((await runJob(now)).acked).toBe(true);

    const port = createBackgroundPort(backgroundDeps(testEnv, { log: silent }));
    const all = await port.history("local", { source: "tail_buy", limit: 20 });
    const rows = all.rows as TailBuyRow[];
    expect(rows.map((r) => r.code).sort()).toEqual(picked.slice(0, 3));
    for (const r of rows) {
      expect(r.run_date).toBe(shanghaiDate(now));
      expect(r.simulated).toBe(true);
      expect(["BUY", "WATCH", "SKIP"]).toContain(r.decision);
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(100);
      expect(r.reason).toMatch(/strength \d+\/100/);
      expect(r.reason).toMatch(/simulated intraday path/);
      // The stored decision is the rule applied to the stored reading.
      const vs = Math.round((r.price / (r.vwap ?? r.price) - 1) * 10000) / 100;
      expect(r.decision).toBe(tailBuyDecision(r.classification as "strong", r.score, vs));
    }
    // A re-run the same day replaces, never duplicates.
    expect((await runJob(now + 60_000)).acked).toBe(true);
    const again = await port.history("local", { source: "tail_buy", limit: 20 });
    expect(again.rows.length).toBe(3);
    const one = rows[0];
    if (!one) throw new Error("no rows");
    const filtered = await port.history("local", { source: "tail_buy", decision: one.decision, limit: 20 });
    expect((filtered.rows as TailBuyRow[]).every((r) => r.decision === one.decision)).toBe(true);
    expect(filtered.message).toMatch(/tail-buy decision/);
  }, 120_000);

  it("the decision rule: washout or strong above VWAP buys, distribution or weak skips", () => {
    expect(tailBuyDecision("washout", 70, 0.5)).toBe("BUY");
    expect(tailBuyDecision("strong", 65, 0)).toBe("BUY");
    expect(tailBuyDecision("strong", 65, -0.2)).toBe("WATCH");
    expect(tailBuyDecision("neutral", 50, 0.3)).toBe("WATCH");
    expect(tailBuyDecision("distribution", 90, 2)).toBe("SKIP");
    expect(tailBuyDecision("strong", 30, 1)).toBe("SKIP");
    expect(tailBuyDecision("washout", 80, -1.5)).toBe("SKIP");
  });
});
