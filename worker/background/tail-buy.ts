/**
 * The tail-buy job (WyckoffAgent's afternoon job): on CN trading days at 14:30 Asia/Shanghai
 * (Cron Trigger `30 6 * * 1-5`), every owner's latest recommendation list is read intraday — the
 * session's minute bars, their VWAP and strength /100 (tools/handlers/intraday-analysis.ts) and the
 * rescue classification against the support known before the session (engine/intraday-rescue.ts) —
 * and each symbol gets a decision, stored for `query_history source=tail_buy`:
 *   BUY   — a washout reclaimed or a strong session, strength ≥ 60, holding at or above VWAP;
 *   SKIP  — distribution, strength ≤ 35, or more than 1 % below VWAP;
 *   WATCH — anything else.
 * Offline the simulated market's intraday path is used and the rows say so. A day without a session
 * (holiday: the latest minute bars are not today's) stores nothing.
 */
import type { TailBuyRow } from "../contracts/history";
import { classifyRescue, type RescueClass } from "../engine/intraday-rescue";
import type { Logger } from "../lib/log";
import type { HistoryReader, HistoryWriter } from "../ports/history-store";
import type { MarketData } from "../ports/market-data";
import { intradayMetrics } from "../tools/handlers/intraday-analysis";
import { supportBefore } from "../tools/handlers/intraday-rescue-check";

/** Symbols read per owner (a recommendation list is a handful; this bounds a runaway one). */
export const TAIL_BUY_PER_OWNER = 20;
/** Minute-bar interval the job reads. */
const INTERVAL = 5;

/** What the job needs. */
export interface TailBuyDeps {
  history: HistoryReader & HistoryWriter;
  market: MarketData;
  now: () => number;
  log: Logger;
}

/** The decision rule (pure). */
export function tailBuyDecision(c: RescueClass, strength: number, vsVwapPct: number): TailBuyRow["decision"] {
  if (c === "distribution" || strength <= 35 || vsVwapPct < -1) return "SKIP";
  if ((c === "washout" || c === "strong") && strength >= 60 && vsVwapPct >= 0) return "BUY";
  return "WATCH";
}

/** The Shanghai calendar date of `ms`. */
export function shanghaiDate(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
}

/** Runs the job once; answers how many decisions were stored. */
export async function runTailBuy(d: TailBuyDeps): Promise<number> {
  const today = shanghaiDate(d.now());
  const lists = await d.history.latestRecommendationLists(TAIL_BUY_PER_OWNER);
  let stored = 0;
  for (const list of lists) {
    const rows: TailBuyRow[] = [];
    for (const rec of list.rows) {
      const r = await d.market.minuteBars(rec.code, { interval: INTERVAL });
      if (!r.ok) {
        d.log.warn("tail_buy_no_intraday", { code: rec.code, reason: r.error.message });
        continue;
      }
      const m = intradayMetrics(r.value.bars, INTERVAL);
      const simulated = r.value.symbol.simulated;
      // A real symbol's latest session must be today's (no session on a holiday); the simulated
      // market's path is built from its latest daily bar, whatever its date.
      if (!m || m.bars < 3 || (!simulated && m.session !== today)) continue;
      const sessionBars = r.value.bars.filter((b) => b.time.startsWith(m.session));
      const support = await supportBefore(d.market, r.value.symbol, m.session);
      const reading = classifyRescue(sessionBars, support.level);
      if (!reading) continue;
      const decision = tailBuyDecision(reading.classification, m.strength, m.vsVwapPct);
      rows.push({
        code: r.value.symbol.id,
        name: r.value.symbol.name,
        run_date: today,
        decision,
        score: m.strength,
        classification: reading.classification,
        reason: [
          `${reading.classification}; strength ${m.strength}/100; ${m.vsVwapPct >= 0 ? "+" : ""}${m.vsVwapPct}% vs VWAP`,
          ...reading.reasons,
          ...(simulated ? ["simulated intraday path (offline market)"] : []),
        ].join("; "),
        price: m.last,
        vwap: m.vwap,
        simulated,
      });
    }
    if (rows.length > 0) await d.history.addTailBuys(list.ownerId, rows, d.now());
    stored += rows.length;
  }
  d.log.info("tail_buy_done", { date: today, owners: lists.length, stored });
  return stored;
}
