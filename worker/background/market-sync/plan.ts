/**
 * The sync planner (pure): given the day's whole-market list and the stored series ends, decides per
 * symbol whether the list's bar can be appended (the stored series ends on the previous trading day
 * and its last close equals the list's previous close), the history must be fetched (no history,
 * fewer than MIN_SYNC_BARS bars, a gap, a corporate action — the previous close moved — or a failure
 * last run), or nothing is to do (already current, or the stock did not trade). Then cuts the work
 * into batches: append batches carry the day's rows, fetch batches only ids.
 */
import type { AppendItem, SeriesHead, SyncBatchItems, UniverseRow } from "../../ports/market-sync";

/** Bars every synced symbol keeps at least (the funnel reads 320). */
export const MIN_SYNC_BARS = 320;
/** Symbols per append batch (one D1 read and one write per symbol). */
export const APPEND_BATCH = 100;
/** Symbols per fetch batch (one or two provider requests per symbol, paced). */
export const FETCH_BATCH = 25;
/**
 * Previous-close agreement for an append: the list's unadjusted previous close and the stored
 * (forward-adjusted) last close agree to within half a tick (0.005) or 0.05 %, whichever is larger.
 * Anything more means a dividend, split or rights issue re-adjusted the history: refetch it.
 */
export function sameClose(stored: number, listed: number): boolean {
  return Math.abs(stored - listed) <= Math.max(0.005, 0.0005 * Math.max(stored, listed));
}

/** Why a symbol is fetched (for counts and logs). */
export type FetchReason = "new" | "short" | "gap" | "corporate_action" | "retry";

/** The plan of a run. */
export interface SyncPlan {
  tradeDate: string | null;
  /** The trading day before `tradeDate` as the store knows it (the most common stored end before it). */
  previousDate: string | null;
  append: AppendItem[];
  fetch: { id: string; reason: FetchReason }[];
  skipped: number;
}

/** The list's trading date: the latest row date (rows of suspended stocks carry older dates or none). */
export function listTradeDate(rows: readonly UniverseRow[]): string | null {
  let best: string | null = null;
  for (const r of rows) if (r.bar && r.tradeDate && (best === null || r.tradeDate > best)) best = r.tradeDate;
  return best;
}

/** The most common stored last date before `tradeDate` (ties: the later one). */
export function previousTradeDate(heads: ReadonlyMap<string, SeriesHead>, tradeDate: string | null): string | null {
  const counts = new Map<string, number>();
  for (const h of heads.values())
    if (tradeDate === null || h.lastDate < tradeDate) counts.set(h.lastDate, (counts.get(h.lastDate) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [date, n] of counts)
    if (n > bestCount || (n === bestCount && best !== null && date > best)) {
      best = date;
      bestCount = n;
    }
  return best;
}

/** Plans one run over the list rows (listed stocks), the stored heads and last run's failures. */
export function planSync(
  rows: readonly UniverseRow[],
  heads: ReadonlyMap<string, SeriesHead>,
  failed: ReadonlySet<string>,
): SyncPlan {
  const tradeDate = listTradeDate(rows);
  const previousDate = previousTradeDate(heads, tradeDate);
  const plan: SyncPlan = { tradeDate, previousDate, append: [], fetch: [], skipped: 0 };
  for (const r of rows) {
    const head = heads.get(r.id);
    if (!head) {
      plan.fetch.push({ id: r.id, reason: "new" });
      continue;
    }
    const traded = r.bar !== null && r.tradeDate !== null && r.tradeDate === tradeDate;
    if (failed.has(r.id)) plan.fetch.push({ id: r.id, reason: "retry" });
    else if (head.barCount < MIN_SYNC_BARS) plan.fetch.push({ id: r.id, reason: "short" });
    else if (!traded || (tradeDate !== null && head.lastDate >= tradeDate)) plan.skipped += 1;
    else if (previousDate !== null && head.lastDate < previousDate) plan.fetch.push({ id: r.id, reason: "gap" });
    else if (r.prevClose === null || !sameClose(head.lastClose, r.prevClose))
      plan.fetch.push({ id: r.id, reason: "corporate_action" });
    else if (r.bar) plan.append.push({ id: r.id, bar: r.bar });
  }
  return plan;
}

/** Cuts a plan into numbered batches: appends first (cheap), then fetches. */
export function planBatches(
  plan: SyncPlan,
  extraFetch: readonly string[] = [],
): (SyncBatchItems & { batch: number })[] {
  const out: (SyncBatchItems & { batch: number })[] = [];
  for (let i = 0; i < plan.append.length; i += APPEND_BATCH)
    out.push({ batch: out.length, mode: "append", items: plan.append.slice(i, i + APPEND_BATCH) });
  const ids = [...extraFetch, ...plan.fetch.map((f) => f.id)];
  for (let i = 0; i < ids.length; i += FETCH_BATCH)
    out.push({ batch: out.length, mode: "fetch", items: ids.slice(i, i + FETCH_BATCH) });
  return out;
}

/**
 * Cuts a US run into fetch batches: the index first, then every symbol of the list. Yahoo has no
 * whole-market list with the day's bar, so each symbol is fetched every run (incrementally once its
 * history is stored; a re-adjusted history — a split or dividend — is refetched whole).
 */
export function planUsBatches(
  ids: readonly string[],
  indices: readonly string[],
): (SyncBatchItems & { batch: number })[] {
  const all = [...new Set([...indices, ...ids])];
  const out: (SyncBatchItems & { batch: number })[] = [];
  for (let i = 0; i < all.length; i += FETCH_BATCH)
    out.push({ batch: out.length, mode: "fetch", items: all.slice(i, i + FETCH_BATCH) });
  return out;
}
