/**
 * The live market sync's status in one line (pure, for the reading room's status line): coverage
 * of the synced universe and as-of date, the last run and its failures, progress of a running run,
 * or — before any sync completed — what is refused and how to start one.
 */
import type { SyncStatus } from "@contracts/market-sync";
import type { Translate } from "./lang-store";

/** The parts of the line (null when the sync does not apply: the offline market). */
export function syncLine(s: SyncStatus, t: Translate, locale: string): { tone: "ok" | "warn"; text: string } | null {
  if (!s.enabled) return null;
  const n = (x: number): string => x.toLocaleString(locale);
  const parts: string[] = [];
  if (!s.coverage) parts.push(t("syncNever"));
  else
    parts.push(
      t("syncCoverage", {
        current: n(s.coverage.current),
        universe: n(s.coverage.universe),
        pct: s.coverage.pct.toLocaleString(locale, { maximumFractionDigits: 1 }),
        asOf: s.coverage.asOf ?? "—",
      }),
    );
  const run = s.latest;
  if (run?.status === "running") parts.push(t("syncRunning", { done: n(run.batchesDone), total: n(run.batchesTotal) }));
  else if (run) {
    const at = new Date(run.finishedAt ?? run.startedAt).toLocaleString(locale, {
      dateStyle: "short",
      timeStyle: "short",
    });
    parts.push(t("syncLastRun", { at, status: t(run.status === "done" ? "syncStatusDone" : "syncStatusFailed") }));
  }
  if (s.failuresTotal > 0) parts.push(t("syncFailures", { count: n(s.failuresTotal) }));
  const tone = !s.coverage || run?.status === "failed" || s.failuresTotal > 0 ? "warn" : "ok";
  return { tone, text: parts.join(" · ") };
}
