/**
 * The engine's entry point: `analyze(bars, options)` runs the indicators, the structure scan, health,
 * stops, targets and triggers over daily bars and returns the CONTRACTS.md analysis shape.
 * Deterministic and point in time: the answer for bars ≤ D never depends on bars after D.
 */
import {
  MIN_ANALYZE_BARS,
  type Analysis,
  type Bar,
  type Board,
  type Market,
  type Trigger,
  type WyckoffEvent,
} from "../contracts/analysis";
import { err, ok, type Result } from "../lib/result";
import { diagnosePosition, type Diagnosis, type Position } from "./diagnosis";
import { effortResultAt } from "./effort-result";
import { computeStops } from "./exits";
import { scoreHealth } from "./health";
import { blocksEntries, type RegimeState } from "./market-regime";
import { rsiWilderLast } from "./momentum";
import { at, finiteOrNull, round } from "./numeric";
import { BOARD_SCALE, boardOf, type EngineParams, resolveParams } from "./params";
import { alignBenchmark, downDayResilience, mansfieldAt, relativeReturn } from "./relative-strength";
import { adjustForActions, CN_LIMIT, findCorporateActions, US_GAP, volumeUsable } from "./input-quality";
import { scanStructure } from "./scan-structure";
import { buildSeries, type Series, seriesScratchSize } from "./series";
import type { RawEvent, Structure } from "./structure-types";
import { computeTargets } from "./targets";
import { pivotRangeAt, rangeQuality } from "./trading-range";
import { confirmTrigger, triggersAt, type TriggerSignal } from "./triggers";

/** Options of `analyze`. All optional; the market is inferred from the symbol when absent. */
export interface AnalyzeOptions {
  symbol?: string;
  /** "CN" enables frozen-bar rules and board scaling. Default: CN for 6-digit codes, else US. */
  market?: Market;
  /** A-share board; default from the symbol code. */
  board?: Board;
  /** Benchmark index bars (any dates; aligned by date) for RS10/RS3, Mansfield and resilience. */
  benchmark?: readonly Bar[];
  /** Cross-sectional RPS (0–100) when the caller ranked a universe. */
  rps50?: number;
  rps120?: number;
  /** Market regime; RISK_OFF / CRASH cap health at 50 and block entry triggers. */
  regime?: RegimeState;
  /** A held position, for a position-aware diagnosis. */
  position?: Position;
  /** Overrides of the rule-set parameters. */
  params?: Partial<EngineParams>;
}

/**
 * A closed structure's support and resistance. One that ended before its AR was confirmed has no band
 * on the AR's side yet: the price range from the climax to its end stands in (never a NaN: the
 * contract's numbers, and JSON would turn it into null).
 */
function closedBands(s: Series, st: Structure, end: number): { support: number; resistance: number } {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  if (!Number.isFinite(st.support) || !Number.isFinite(st.resistance))
    for (let i = Math.max(0, st.climaxIndex); i <= end && i < s.n; i++) {
      lo = Math.min(lo, at(s.low, i));
      hi = Math.max(hi, at(s.high, i));
    }
  return {
    support: round(Number.isFinite(st.support) ? st.support : lo),
    resistance: round(Number.isFinite(st.resistance) ? st.resistance : hi),
  };
}

/** The analysis, plus the diagnosis when a position was given. */
export type AnalyzeResult = Analysis & { diagnosis?: Diagnosis };

/** Infers the market from a symbol: 6-digit codes (optionally with SH/SZ/BJ) are CN. */
export function inferMarket(symbol: string | undefined): Market {
  if (!symbol) return "US";
  return /^(sh|sz|bj)?\d{6}(\.(sh|sz|bj|ss))?$/i.test(symbol.trim()) ? "CN" : "US";
}

function toEvent(s: Series, e: RawEvent): WyckoffEvent {
  const out: WyckoffEvent = {
    type: e.type,
    date: s.date[e.index] ?? "",
    confirmedAt: s.date[e.confirmedAt] ?? "",
    price: round(e.price, 4),
    volumeRatio: finiteOrNull(e.vr, 3) ?? 0,
    confidence: e.confidence,
    reasons: e.reasons,
  };
  if (e.variant) out.variant = e.variant;
  return out;
}

/**
 * Quality of the event-anchored range from the bars inside its bands only: a bar that closed below
 * support or above resistance is not a test of it, and the share of closes outside the bands scales
 * the quality down (a range price has left is no longer a range).
 */
function eventRangeQuality(s: Series, st: Structure, t: number, maxDrift: number): number {
  const from = st.climaxIndex;
  let tests = 0;
  let inside = 0;
  for (let i = from; i <= t; i++) {
    const c = at(s.close, i);
    if (c < st.support || c > st.resistance) continue;
    inside++;
    if (at(s.low, i) <= st.support * 1.035) tests++;
    if (at(s.high, i) >= st.resistance * 0.965) tests++;
  }
  const width = (st.resistance - st.support) / st.support;
  const drift = Math.abs(at(s.close, t) / at(s.close, from) - 1);
  const q = rangeQuality(tests, width, Math.min(drift, maxDrift), at(s.atr, t) / at(s.close, t), maxDrift);
  return q * (inside / Math.max(1, t - from + 1));
}

/**
 * One buffer for the series of every call: analyze is synchronous and keeps no column of its series
 * in what it returns (every output is a number or a string copied out), so the next call may
 * overwrite it. Grown when a longer input comes.
 */
let scratch = new Float64Array(0);

function seriesScratch(n: number): Float64Array {
  const need = seriesScratchSize(n);
  if (scratch.length < need) scratch = new Float64Array(Math.max(need, 2 * scratch.length));
  return scratch;
}

/** Runs the engine over `bars` (ascending, unique dates, validated by the contract schema). */
export function analyze(bars: readonly Bar[], options: AnalyzeOptions = {}): Result<AnalyzeResult> {
  if (bars.length < MIN_ANALYZE_BARS) {
    return err("insufficient_data", `need at least ${MIN_ANALYZE_BARS} daily bars to analyse, got ${bars.length}`, {
      bars: bars.length,
      minimum: MIN_ANALYZE_BARS,
    });
  }
  const p = resolveParams(options.params);
  const market = options.market ?? inferMarket(options.symbol);
  const board = options.board ?? (market === "CN" && options.symbol ? boardOf(options.symbol) : "main");
  const scale = market === "CN" ? BOARD_SCALE[board] : 1;
  const volumeOk = volumeUsable(bars);
  const actions = findCorporateActions(bars, market, board);
  const s = buildSeries(
    actions.length > 0 ? adjustForActions(bars, actions) : bars,
    market,
    p,
    seriesScratch(bars.length),
  );
  const ctx = { s, p, scale };
  const { state, pivots } = scanStructure(ctx);
  // A probable corporate action's bar is an artefact of the adjustment (its effort and spread are
  // not the market's): no event is dated on it, whatever structure is open then.
  if (actions.length > 0) state.events = state.events.filter((e) => !actions.some((a) => a.index === e.index));
  const t = s.n - 1;
  const date = (i: number): string => s.date[i] ?? "";
  const warnings: string[] = [];
  for (const a of actions)
    warnings.push(
      `probable corporate action on ${date(a.index)}: a ${(a.change * 100).toFixed(1)}% one-day move beyond ${
        market === "CN" ? `the ${(CN_LIMIT[board] * 100).toFixed(0)}% price limit` : `a ${US_GAP * 100}% gap`
      }; bars before it are ratio-adjusted ×${a.ratio.toFixed(4)} for this reading (their prices here are adjusted)`,
    );
  if (!volumeOk) {
    // Price-only reading: no effort information, so no volume-based events and no structural phase.
    warnings.push("volume is absent (all zero, mostly zero or constant): price-only reading, no volume-based events");
    state.events = [];
    state.failures = [];
    state.lastStructure = null;
    state.structure = null;
    state.closed = [];
    const c = at(s.close, t);
    const ma50 = at(s.sma50, t);
    const ma200 = at(s.sma200, t);
    state.phase = c > ma200 && ma50 > ma200 ? "MARKUP" : c < ma200 && ma50 < ma200 ? "MARKDOWN" : "NONE";
    state.phaseSince = -1;
  }

  const last = state.lastStructure;
  const open = state.structure && state.structure.arConfirmed ? state.structure : null;
  let tradingRange: Analysis["tradingRange"] = null;
  if (open) {
    const q = eventRangeQuality(s, open, t, p.rangeMaxDrift * scale);
    tradingRange = {
      support: round(open.support),
      resistance: round(open.resistance),
      from: date(open.climaxIndex),
      to: date(t),
      quality: round(q, 3),
      mode: "event",
    };
  } else {
    const r = pivotRangeAt(s, pivots, s.n, p, scale, true);
    // A range the last close has left by more than 2 ATR is no longer in force.
    const c = at(s.close, t);
    const atr = at(s.atr, t);
    const left = r ? c < r.support - 2 * atr || c > r.resistance + 2 * atr : true;
    if (r?.valid && !left)
      tradingRange = {
        support: round(r.support),
        resistance: round(r.resistance),
        from: date(r.from),
        to: date(r.to),
        quality: round(r.quality, 3),
        mode: "pivot",
      };
  }

  const bench = options.benchmark && options.benchmark.length > 0 ? alignBenchmark(s.date, options.benchmark) : null;
  const rs10 = bench ? relativeReturn(s.close, bench, t, 10) : Number.NaN;
  const rs3 = bench ? relativeReturn(s.close, bench, t, 3) : Number.NaN;
  const mansfield = bench ? mansfieldAt(s.close, bench, t, Math.min(200, s.n)) : Number.NaN;
  const resilience = bench ? downDayResilience(s.close, bench, t, 20) : Number.NaN;
  const effort = effortResultAt(s, t);
  let low250 = Number.POSITIVE_INFINITY;
  for (let i = Math.max(0, t - 249); i <= t; i++) low250 = Math.min(low250, at(s.low, i));

  const structEvents = last ? state.events.filter((e) => e.index >= last.climaxIndex) : [];
  const health = scoreHealth({
    phase: state.phase,
    rangeQuality: tradingRange ? tradingRange.quality : null,
    events: last?.side === "acc" ? structEvents : [],
    allEvents: state.events,
    failures: state.failures,
    t,
    effort,
    mansfield,
    rs10,
    ...(options.rps120 === undefined ? {} : { rps120: options.rps120 }),
    resilience,
    close: at(s.close, t),
    ma50: at(s.sma50, t),
    ma50Prev: at(s.sma50, t - 5),
    ma200: at(s.sma200, t),
    low250,
    resistance: last ? last.resistance : null,
    ...(options.regime === undefined ? {} : { regime: options.regime }),
  });

  const accBase =
    last && last.side === "acc" && last.arConfirmed ? (last.trapIndex >= 0 ? last.trapPrice : last.support) : undefined;
  const stops = computeStops(s, t, accBase);
  const find = (type: RawEvent["type"]): RawEvent | undefined => structEvents.find((e) => e.type === type);
  const lp = last?.side === "acc" ? (find("LPS") ?? find("BU")) : find("LPSY");
  const brk = last?.side === "acc" ? find("SOS") : find("SOW");
  const targets = computeTargets(
    s,
    last && last.arConfirmed
      ? {
          side: last.side,
          support: last.support,
          resistance: last.resistance,
          countFrom: last.arIndex + 1,
          countTo: lp?.index ?? brk?.index ?? t,
          lastPoint: lp ? lp.price : null,
          brokeOut: last.breakoutIndex >= 0,
        }
      : null,
  );

  const triggers = volumeOk ? collectTriggers(s, state.events, t, scale, options.regime) : [];
  const ma20 = at(s.sma20, t);
  const analysis: AnalyzeResult = {
    symbol: options.symbol ?? "",
    asOf: date(t),
    phase: { name: state.phase, since: state.phaseSince >= 0 ? date(state.phaseSince) : null },
    tradingRange,
    events: state.events
      .slice()
      .sort((a, b) => a.index - b.index || a.confirmedAt - b.confirmedAt)
      .map((e) => toEvent(s, e)),
    triggers,
    health,
    stops,
    targets,
    indicators: {
      close: at(s.close, t),
      ma20: finiteOrNull(ma20),
      ma50: finiteOrNull(at(s.sma50, t)),
      ma200: finiteOrNull(at(s.sma200, t)),
      atr14: finiteOrNull(at(s.atr, t)),
      atrPct: finiteOrNull(at(s.atr, t) / at(s.close, t)),
      rsi14: finiteOrNull(rsiWilderLast(s.close, 14), 2),
      volumeRatio: finiteOrNull(at(s.vr, t), 3),
      spreadRatio: finiteOrNull(at(s.sr, t), 3),
      dryUp: finiteOrNull(effort.dryUp, 3),
      upDownVolume40: finiteOrNull(effort.upDownVolume40, 3),
      noDemand20: effort.noDemand20,
      noSupply20: effort.noSupply20,
      rs10: finiteOrNull(rs10),
      rs3: finiteOrNull(rs3),
      mansfield: finiteOrNull(mansfield, 3),
    },
  };
  if (!volumeOk) analysis.volume = "absent";
  if (warnings.length > 0) analysis.warnings = warnings;
  if (actions.length > 0)
    analysis.corporateActions = actions.map((a) => ({
      date: date(a.index),
      change: round(a.change, 4),
      ratio: round(a.ratio, 6),
    }));
  if (state.closed.length > 0)
    analysis.structures = state.closed.slice(-10).map((st) => ({
      side: st.side === "acc" ? "accumulation" : "distribution",
      from: date(st.climaxIndex),
      to: date(st.endIndex ?? t),
      ...closedBands(s, st, st.endIndex ?? t),
      outcome: st.outcome ?? "stale",
    }));
  if (options.position) analysis.diagnosis = diagnosePosition(analysis, options.position);
  return ok(analysis);
}

/** Bars back from the last bar over which triggers are reported. */
const TRIGGER_LOOKBACK = 20;

function collectTriggers(
  s: Series,
  events: readonly RawEvent[],
  t: number,
  scale: number,
  regime?: RegimeState,
): Trigger[] {
  const from = Math.max(0, t - TRIGGER_LOOKBACK + 1);
  const signals: TriggerSignal[] = [];
  for (const e of events) {
    if (e.confirmedAt < from) continue;
    if (e.type === "Spring")
      signals.push({
        type: "spring",
        index: e.confirmedAt,
        support: e.price,
        reasons: ["structural Spring reclaimed support", ...e.reasons.slice(0, 1)],
      });
    else if (e.type === "SOS")
      signals.push({
        type: "sos",
        index: e.confirmedAt,
        reasons: ["structural SOS (alert only until an LPS/BU confirms)"],
      });
    else if (e.type === "LPS" || e.type === "BU")
      signals.push({ type: "lps", index: e.confirmedAt, reasons: [`structural ${e.type} confirmed`] });
    else if (e.type === "EVR" && e.variant === "absorption")
      signals.push({ type: "evr", index: e.confirmedAt, reasons: ["absorption in the lower half of the range"] });
  }
  for (let i = Math.max(from, 65); i <= t; i++) signals.push(...triggersAt(s, i, scale));
  const seen = new Set<string>();
  const out: Trigger[] = [];
  signals.sort((a, b) => a.index - b.index);
  for (const sig of signals) {
    const key = `${sig.type}@${sig.index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const o = confirmTrigger(s, sig, t);
    const reasons =
      regime && blocksEntries(regime) ? [...sig.reasons, `entries blocked in regime ${regime}`] : sig.reasons;
    const trig: Trigger = { type: sig.type, date: s.date[sig.index] ?? "", status: o.status, reasons };
    if (o.resolvedAt !== null) trig.resolvedAt = s.date[o.resolvedAt] ?? "";
    out.push(trig);
  }
  return out;
}
