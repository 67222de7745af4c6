/**
 * One backtest trade on one series (PARITY.md §2.5): entry on the bar after the signal (skipped when
 * it is a one-price limit-up), exits from the day after entry (T+1) by `close_only`, `sltp` (stop,
 * then trailing from the previous peak, then take-profit; gaps fill at the open) or `atr` (2 × ATR14,
 * hard floor −9%, at most 120 days); one-price limit-down days cannot be sold; friction on both legs.
 */
import type { ExitMode } from "../../contracts/backtest";
import { at } from "../numeric";
import type { Series } from "../series";

/** Cost per side (0.5%). */
export const FRICTION = 0.005;
/** ATR exit: multiple, hard floor and longest hold. */
export const ATR_EXIT = { multiple: 2, floor: -0.09, maxDays: 120 } as const;

/** Trade rules. */
export interface TradeRules {
  exitMode: ExitMode;
  holdDays: number;
  /** Stop as a fraction (−0.08). */
  stopLoss: number;
  /** Take-profit as a fraction (0.18), or null. */
  takeProfit: number | null;
  /** Trailing stop from the previous peak as a fraction (0.1), or null. */
  trailing: number | null;
  priority: "stop_first" | "take_first";
  entryPrice: "next_open" | "next_close";
  /** Last bar index a trade may use (the data's end). */
  lastIndex: number;
  /** CN rules (limit days). */
  limitRules: boolean;
}

/** A simulated trade (indices into the series). */
export interface SimTrade {
  entryIndex: number;
  entryPrice: number;
  exitIndex: number;
  exitPrice: number;
  exitReason: string;
  /** Net return after friction (fraction). */
  ret: number;
}

function oneBar(s: Series, i: number): boolean {
  return at(s.frozen, i) === 1;
}

/** Simulates the trade of a signal at bar `signal`; null when it cannot be entered. */
export function simulateTrade(s: Series, signal: number, r: TradeRules): SimTrade | null {
  const e = signal + 1;
  if (e > r.lastIndex) return null;
  const prev = at(s.close, signal);
  if (r.limitRules && oneBar(s, e) && at(s.close, e) > prev) return null;
  const entry = r.entryPrice === "next_open" ? at(s.open, e) : at(s.close, e);
  if (!(entry > 0)) return null;
  const maxDays = r.exitMode === "atr" ? ATR_EXIT.maxDays : r.holdDays;
  const last = Math.min(r.lastIndex, e + maxDays);
  let stop = entry * (1 + r.stopLoss);
  if (r.exitMode === "atr") stop = Math.max(entry - ATR_EXIT.multiple * at(s.atr, e), entry * (1 + ATR_EXIT.floor));
  const take = r.takeProfit !== null && r.exitMode === "sltp" ? entry * (1 + r.takeProfit) : Number.POSITIVE_INFINITY;
  let peak = r.entryPrice === "next_open" ? Math.max(entry, at(s.close, e)) : entry;
  let exit: { i: number; price: number; reason: string } | null = null;
  for (let j = e + 1; j <= last; j++) {
    const o = at(s.open, j);
    const h = at(s.high, j);
    const l = at(s.low, j);
    const c = at(s.close, j);
    const locked = r.limitRules && oneBar(s, j) && c < at(s.close, j - 1);
    if (r.exitMode === "sltp" || r.exitMode === "atr") {
      const trail = r.exitMode === "sltp" && r.trailing !== null ? peak * (1 - r.trailing) : Number.NEGATIVE_INFINITY;
      const floor = Math.max(stop, trail);
      const hitStop = l <= floor;
      const hitTake = h >= take;
      const stopFill = (): void => {
        exit = { i: j, price: o <= floor ? o : floor, reason: floor === stop ? "stop loss" : "trailing stop" };
      };
      const takeFill = (): void => {
        exit = { i: j, price: o >= take ? o : take, reason: "take profit" };
      };
      if (!locked) {
        if (r.priority === "stop_first") {
          if (hitStop) stopFill();
          else if (hitTake) takeFill();
        } else if (hitTake) takeFill();
        else if (hitStop) stopFill();
      }
      if (exit) break;
      peak = Math.max(peak, c);
      if (r.exitMode === "atr") stop = Math.max(stop, peak - ATR_EXIT.multiple * at(s.atr, j));
    }
    if (j === last && !locked) {
      exit = { i: j, price: c, reason: j === e + maxDays ? "holding period ended" : "window end" };
      break;
    }
  }
  if (!exit) {
    // Locked on the last day (or no bar after entry): sell at the first bar that is not locked, else the final close.
    let j = Math.max(e, last);
    while (j < s.n - 1 && r.limitRules && oneBar(s, j) && at(s.close, j) < at(s.close, j - 1)) j++;
    exit = { i: j, price: at(s.close, j), reason: j > last ? "sold after limit-down lock" : "window end" };
  }
  const done: { i: number; price: number; reason: string } = exit;
  const ret = (done.price * (1 - FRICTION)) / (entry * (1 + FRICTION)) - 1;
  return { entryIndex: e, entryPrice: entry, exitIndex: done.i, exitPrice: done.price, exitReason: done.reason, ret };
}
