/**
 * L4 triggers (DOMAIN.md §1.11, WyckoffAgent L4) as pure functions over a series, and the
 * cross-day confirmation state machine: pending → confirmed / expired within a per-type TTL.
 */
import type { TriggerStatus, TriggerType } from "../contracts/analysis";
import { at, meanOf } from "./numeric";
import { quantileFast } from "./rolling";
import type { Series } from "./series";

/** A trigger fired at a bar, with the reference values its confirmation needs. */
export interface TriggerSignal {
  type: TriggerType;
  index: number;
  reasons: string[];
  /** Support level for Spring triggers. */
  support?: number;
}

/** Confirmation window in bars per trigger type. */
export const TRIGGER_TTL: Record<TriggerType, number> = {
  sos: 2,
  spring: 3,
  lps: 3,
  evr: 2,
  compression: 3,
  trend_pullback: 2,
};

function maxOf(v: ArrayLike<number>, from: number, to: number): number {
  let m = Number.NEGATIVE_INFINITY;
  for (let i = Math.max(0, from); i <= to; i++) m = Math.max(m, at(v, i));
  return m;
}

/** SOS trigger at t: +6% (× board scale) on ≥ 2.5× the 60-bar mean volume near a 20-bar high or through MA50. */
export function sosTrigger(s: Series, t: number, scale = 1): TriggerSignal | null {
  if (t < 61 || at(s.frozen, t) === 1) return null;
  const v = at(s.volume, t) / meanOf(s.volume, t - 60, t);
  if (!(at(s.pct, t) >= 0.06 * scale) || !(v >= 2.5)) return null;
  const c = at(s.close, t);
  const nearHigh = c >= maxOf(s.high, t - 20, t - 1) * 0.99;
  const crossed = c > at(s.sma50, t) && at(s.close, t - 1) <= at(s.sma50, t - 1);
  if (!nearHigh && !crossed) return null;
  return {
    type: "sos",
    index: t,
    reasons: [
      `+${(at(s.pct, t) * 100).toFixed(1)}% on ${v.toFixed(1)}× the 60-bar volume`,
      nearHigh ? "at a 20-bar high" : "crossed above MA50",
    ],
  };
}

/** Spring trigger at t (WyckoffAgent): a dip under the 60-bar closing support, reclaimed on rising volume, inside a range. */
export function springTrigger(s: Series, t: number): TriggerSignal | null {
  if (t < 64 || at(s.frozen, t) === 1) return null;
  // The volume test first (every test only rejects, so their order changes no answer): on most bars
  // it fails before the 60-bar scan.
  const v = at(s.volume, t);
  if (!(v >= 1.1 * meanOf(s.volume, t - 4, t)) || !(v / at(s.volume, t - 1) >= 1.15)) return null;
  let support = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let lo = Number.POSITIVE_INFINITY;
  for (let i = t - 61; i <= t - 2; i++) {
    support = Math.min(support, at(s.close, i));
    hi = Math.max(hi, at(s.high, i));
    lo = Math.min(lo, at(s.low, i));
  }
  const atrPct = at(s.atr, t - 2) / at(s.close, t - 2);
  const maxWidth = Math.min(Math.max(4 * atrPct, 0.3), 0.6);
  const drift = Math.abs(at(s.close, t - 2) / at(s.close, t - 61) - 1);
  if ((hi - lo) / lo > maxWidth || drift > 0.12) return null;
  if (!(Math.min(at(s.low, t - 1), at(s.low, t)) < support) || !(at(s.close, t) > support)) return null;
  return {
    type: "spring",
    index: t,
    support,
    reasons: ["dipped under the 60-bar closing support and reclaimed it on rising volume"],
  };
}

/** LPS trigger at t: rising MA20 held on a dry pullback (max volume of 3 bars ≤ 0.5 × the prior 60 max). */
export function lpsTrigger(s: Series, t: number): TriggerSignal | null {
  if (t < 63) return null;
  const ma = at(s.sma20, t);
  if (!(at(s.close, t) >= ma) || !(ma > at(s.sma20, t - 8))) return null;
  const low3 = Math.min(at(s.low, t), at(s.low, t - 1), at(s.low, t - 2));
  if (Math.abs(low3 / ma - 1) > 0.02) return null;
  const dry = maxOf(s.volume, t - 2, t) / maxOf(s.volume, t - 62, t - 3);
  if (!(dry <= 0.5)) return null;
  return { type: "lps", index: t, reasons: [`held rising MA20 on dry volume (${dry.toFixed(2)}× the 60-bar peak)`] };
}

/** EVR trigger at t: bar t−1 had ≥ 1.5× volume with |change| ≤ 2% (× scale), and t held its low. */
export function evrTrigger(s: Series, t: number, scale = 1): TriggerSignal | null {
  const e = t - 1;
  if (e < 20 || at(s.frozen, e) === 1) return null;
  const v = at(s.volume, e) / meanOf(s.volume, e - 18, e);
  if (!(v >= 1.5) || Math.abs(at(s.pct, e)) > 0.02 * scale) return null;
  if (!(at(s.close, t) >= at(s.close, t - 3) * 0.98) || !(at(s.close, t) >= at(s.low, e))) return null;
  return {
    type: "evr",
    index: t,
    reasons: [`${v.toFixed(1)}× volume moved price ${(at(s.pct, e) * 100).toFixed(1)}%; next close held the low`],
  };
}

/** The 20 ATR% values before the last five, reused by every call (single-threaded, never retained). */
const PRIOR = new Float64Array(20);

/** Compression trigger at t: ATR% of the last 5 bars at the 20% quantile of the prior 20, on dry volume, direction OK. */
export function compressionTrigger(s: Series, t: number): TriggerSignal | null {
  if (t < 60) return null;
  const atrPct = (i: number): number => at(s.atr, i) / at(s.close, i);
  let mean5 = 0;
  let upticks = 0;
  for (let i = t - 4; i <= t; i++) {
    mean5 += atrPct(i) / 5;
    if (i > t - 4 && atrPct(i) > atrPct(i - 1)) upticks++;
  }
  const prior = PRIOR;
  for (let i = t - 24; i <= t - 5; i++) prior[i - t + 24] = atrPct(i);
  if (mean5 > quantileFast(prior, 0, PRIOR.length, 0.2) || upticks > 1) return null;
  const vol = meanOf(s.volume, t - 4, t + 1) / meanOf(s.volume, t - 24, t - 4);
  if (!(vol <= 0.6)) return null;
  if (!(at(s.sma20, t) > at(s.sma20, t - 5)) && !(at(s.close, t) >= at(s.sma50, t))) return null;
  return { type: "compression", index: t, reasons: [`volatility at its 20-bar low on ${vol.toFixed(2)}× volume`] };
}

/** Trend-pullback trigger at t: rising MA20, a 5–20% pullback from the 10-bar peak on light volume, and an up close. */
export function trendPullbackTrigger(s: Series, t: number): TriggerSignal | null {
  if (t < 30 || !(at(s.sma20, t) > at(s.sma20, t - 10))) return null;
  let peak = t - 10;
  for (let i = t - 10; i <= t; i++) if (at(s.high, i) > at(s.high, peak)) peak = i;
  const pull = 1 - at(s.close, t) / at(s.high, peak);
  if (pull < 0.05 || pull > 0.2 || !(at(s.close, t) > at(s.close, t - 1)) || peak >= t - 1) return null;
  let up = 0;
  let upN = 0;
  for (let i = Math.max(1, peak - 9); i <= peak; i++) {
    if (at(s.close, i) > at(s.close, i - 1)) {
      up += at(s.volume, i);
      upN++;
    }
  }
  let down = 0;
  let downN = 0;
  for (let i = peak + 1; i < t; i++) {
    if (at(s.close, i) < at(s.close, i - 1)) {
      down += at(s.volume, i);
      downN++;
    }
  }
  if (upN === 0 || downN === 0 || !(down / downN / (up / upN) <= 0.6)) return null;
  return {
    type: "trend_pullback",
    index: t,
    reasons: [`${(pull * 100).toFixed(1)}% pullback in a rising trend on light volume`],
  };
}

/** All L4 signals at bar t. */
export function triggersAt(s: Series, t: number, scale = 1): TriggerSignal[] {
  const out: TriggerSignal[] = [];
  for (const sig of [
    springTrigger(s, t),
    sosTrigger(s, t, scale),
    lpsTrigger(s, t),
    evrTrigger(s, t, scale),
    compressionTrigger(s, t),
    trendPullbackTrigger(s, t),
  ]) {
    if (sig) out.push(sig);
  }
  return out;
}

/** Confirmation outcome of a signal as of bar `last`. */
export interface TriggerOutcome {
  status: TriggerStatus;
  resolvedAt: number | null;
}

/** One day of the confirmation state machine: "confirmed", "expired" or null (still pending). */
function judge(s: Series, sig: TriggerSignal, j: number): "confirmed" | "expired" | null {
  const k = sig.index;
  const c = at(s.close, j);
  const low = at(s.low, j);
  const vol = at(s.volume, j);
  const sigVol = at(s.volume, k);
  switch (sig.type) {
    case "sos":
      if (low < at(s.low, k) || (vol > 0.8 * sigVol && c < 0.97 * at(s.close, k))) return "expired";
      if (c >= at(s.close, k) && vol < 0.8 * sigVol && c >= 0.99 * at(s.sma20, j)) return "confirmed";
      return null;
    case "spring": {
      const sup = sig.support ?? at(s.low, k);
      if (low < 0.98 * sup) return "expired";
      if (c > sup && c >= 0.97 * at(s.sma20, k)) return "confirmed";
      return null;
    }
    case "lps":
      if (low < 0.98 * at(s.sma20, j) || vol > 1.5 * sigVol) return "expired";
      if (
        c >= Math.max(at(s.sma20, k), 0.995 * at(s.sma20, j)) &&
        c >= 0.995 * at(s.close, k) &&
        at(s.cp, j) >= 0.6 &&
        (vol <= 0.9 * sigVol || c > at(s.open, j))
      )
        return "confirmed";
      return null;
    case "evr":
      if (c < at(s.low, k - 1)) return "expired";
      if (c >= 0.98 * at(s.close, k)) return "confirmed";
      return null;
    case "compression": {
      const hi = maxOf(s.high, k - 4, j - 1);
      let lo = Number.POSITIVE_INFINITY;
      for (let i = k - 4; i < j; i++) lo = Math.min(lo, at(s.low, i));
      if (c < lo) return "expired";
      if (c > hi && at(s.vr, j) >= 2) return "confirmed";
      return null;
    }
    case "trend_pullback":
      if (c < at(s.low, k)) return "expired";
      if (c > at(s.high, k)) return "confirmed";
      return null;
  }
}

/** Runs the confirmation state machine for `sig` over bars (index, last]. */
export function confirmTrigger(s: Series, sig: TriggerSignal, last: number): TriggerOutcome {
  const ttl = TRIGGER_TTL[sig.type];
  for (let j = sig.index + 1; j <= Math.min(last, sig.index + ttl); j++) {
    const v = judge(s, sig, j);
    if (v) return { status: v, resolvedAt: j };
  }
  if (last >= sig.index + ttl) return { status: "expired", resolvedAt: sig.index + ttl };
  return { status: "pending", resolvedAt: null };
}
