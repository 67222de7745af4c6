/**
 * What the engine checks about its input before reading it (issue 15):
 * - usable volume: a series whose volume is all zero, mostly zero or constant carries no effort
 *   information, so the reading is price only (no volume-based events) with `volume: "absent"`;
 * - probable corporate actions: a one-day close-to-close move beyond the board's price limit (A-shares,
 *   where limits apply: from 1996-12-16, after a listing's first five bars) or, on US data, a gap of
 *   more than `US_GAP` at the open and close, is not a market move but an ex-rights / split day. The
 *   bars before it are ratio-adjusted for the engine (prices × r, volume ÷ r, r = open / previous close)
 *   and the analysis carries a warning.
 */
import type { Bar, Board, Market } from "../contracts/analysis";

/** Daily price limit per A-share board (the widest that applies to the board today). */
export const CN_LIMIT: Record<Board, number> = { main: 0.1, chinext: 0.2, star: 0.2, bse: 0.3 };
/** Slack over the limit before a move counts as impossible (rounding of the limit price). */
const LIMIT_SLACK = 0.015;
/** A-share daily price limits apply from this date. */
const CN_LIMITS_FROM = "1996-12-16";
/** A listing's first bars trade without limits. */
const LISTING_BARS = 5;
/** US: a gap beyond this at both open and close is read as a split or similar. */
export const US_GAP = 0.3;
/** Share of bars with positive volume below which volume is treated as absent. */
const MIN_VOLUME_SHARE = 0.5;

/** A probable corporate action found in the input. */
export interface CorporateAction {
  index: number;
  /** Close-to-close change on the day. */
  change: number;
  /** Factor applied to prices before the day. */
  ratio: number;
}

/** True when the series' volume carries information: mostly positive and not constant. */
export function volumeUsable(bars: readonly Bar[]): boolean {
  let positive = 0;
  let first = Number.NaN;
  let varies = false;
  for (const b of bars) {
    if (b.volume > 0) positive++;
    if (Number.isNaN(first)) first = b.volume;
    else if (b.volume !== first) varies = true;
  }
  return varies && positive >= MIN_VOLUME_SHARE * bars.length;
}

/** Probable corporate actions in `bars` (see the module comment). */
export function findCorporateActions(bars: readonly Bar[], market: Market, board: Board): CorporateAction[] {
  const out: CorporateAction[] = [];
  const limit = CN_LIMIT[board] + LIMIT_SLACK;
  for (let i = Math.max(1, market === "CN" ? LISTING_BARS : 1); i < bars.length; i++) {
    const b = bars[i];
    const prev = bars[i - 1];
    if (!b || !prev) continue;
    const change = b.close / prev.close - 1;
    const gap = b.open / prev.close - 1;
    const flagged =
      market === "CN"
        ? b.date >= CN_LIMITS_FROM && Math.abs(change) > limit
        : Math.abs(change) > US_GAP && Math.abs(gap) > US_GAP;
    if (flagged) out.push({ index: i, change, ratio: b.open / prev.close });
  }
  return out;
}

/** Bars with every bar before each action ratio-adjusted (prices × r, volume ÷ r). */
export function adjustForActions(bars: readonly Bar[], actions: readonly CorporateAction[]): Bar[] {
  if (actions.length === 0) return bars.slice();
  const out = bars.map((b) => ({ ...b }));
  // Walk back from the last action so each bar gets the product of the ratios after it.
  let k = 1;
  let a = actions.length - 1;
  for (let i = out.length - 1; i >= 0; i--) {
    while (a >= 0 && (actions[a]?.index ?? -1) > i) {
      k *= actions[a]?.ratio ?? 1;
      a--;
    }
    if (k === 1) continue;
    const b = out[i];
    if (!b) continue;
    b.open *= k;
    b.high *= k;
    b.low *= k;
    b.close *= k;
    b.volume /= k;
  }
  return out;
}
