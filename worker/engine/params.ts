/**
 * Engine parameters (DOMAIN.md §1.13) with their defaults, and A-share board scaling.
 * Every threshold is named here so rules read as prose and tests can vary one at a time.
 */
import type { Board } from "../contracts/analysis";

/** Tunable thresholds of the rule set v1. Percentages are fractions (0.02 = 2%). */
export interface EngineParams {
  /** Bars in the volume / spread averages (vr, sr). */
  avgWindow: number;
  /** SC/BC: minimum volume ratio and spread ratio. */
  climaxVr: number;
  climaxSr: number;
  /** SC context: ret60 at or below this (negative); BC context: at or above `bcRet60`. */
  scRet60: number;
  bcRet60: number;
  /** Bars a climax must be the extreme of. */
  climaxLookback: number;
  /** AR must come within this many bars of the climax; minimum rally / decline. */
  arWindow: number;
  arMinMove: number;
  /**
   * The AR is the extreme of the whole reaction off the climax, not of its first leg: it is tracked
   * for up to `arTrackBars` bars and confirmed when price comes back into the test zone, the
   * `arZone` share of the climax–AR span nearest the climax (or, once the tracking window is over,
   * by a one-ATR reversal). At 0.15 a pullback that holds well above the climax (S&P 500 2011-08-19,
   * 19% of the span) no longer ends the reaction; 0.25 dated that AR on its first leg (real AR
   * 0.39/0.47 → 0.44/0.53 recall/precision, nothing else on the real suite or the synthetic goals moves).
   */
  arTrackBars: number;
  arZone: number;
  /** ST: band around the climax extreme; volume at most this share of climax volume. */
  stBand: number;
  stMaxVolShare: number;
  stWindow: number;
  /**
   * ST as a higher low (lower high): a test that holds above the SC low (under the BC high) by more
   * than `stBand`, within the `stZone` share of the range's height nearest the climax, on volume at
   * most `stZoneVr` × the 20-bar average (a test on lower volume, not a new leg of supply or demand).
   */
  stZone: number;
  stZoneVr: number;
  /** `stZone` for distribution (a lower high under the BC); 0 turns the variant off. */
  stZoneDist: number;
  /**
   * ST that undercuts support before phase C can begin (`springMinBarsAfterAr`): deepest undercut
   * (× board scale, capped at 2 ATR), closing back above support; 0 turns the variant off.
   */
  stUndercutMax: number;
  /**
   * ST on heavy volume: at most `stNarrowVolShare` × the climax's heaviest bar when the spread is at
   * most `stNarrowSr` × the climax's widest (effort without result); `stNarrowSr` 0 turns it off.
   */
  stNarrowVolShare: number;
  stNarrowSr: number;
  /**
   * An ST's bar closes off its extreme: close position ≥ `stCloseOff` for an SC test (≤ 1 − it for
   * a BC test). A test that closes at its low is supply still in control, not a test that held.
   */
  stCloseOff: number;
  /** Spring / UTAD: minimum bars after AR, minimum and maximum penetration, reclaim window. */
  springMinBarsAfterAr: number;
  springMinPen: number;
  springMaxPen: number;
  reclaimBars: number;
  /** Spring #2 (neither #1's heavy supply nor #3's dry narrow bar): minimum spread ratio of the Spring bar. */
  spring2MinSr: number;
  /** Test: window after the Spring and band above the Spring low (the band also bounds a later ST after the window). */
  testFrom: number;
  testTo: number;
  testBand: number;
  /** SOS / SOW: breakout margin, spread ratio, volume ratio, close position. */
  breakMargin: number;
  breakSr: number;
  breakVr: number;
  sosCp: number;
  sowCp: number;
  /** LPS/BU and LPSY: window after SOS/SOW, BU band, dry-volume share. */
  pullbackWindow: number;
  buBand: number;
  pullbackDryShare: number;
  /** UT/UTAD: minimum volume ratio and upper shadow share. */
  utVr: number;
  utShadow: number;
  /** EVR: minimum volume ratio, maximum |1-day change| and maximum spread ratio (effort without result). */
  evrVr: number;
  evrMaxPct: number;
  evrMaxSr: number;
  /** Frozen (limit-locked) bar: (H−L)/C and |O−C|/C at most this. */
  frozenPct: number;
  /** Pivot fractal half-width and ATR significance. */
  pivotK: number;
  pivotAtr: number;
  /** Pivot-median trading range window and validity bounds. */
  rangeWindow: number;
  rangeMinBars: number;
  rangeMinWidth: number;
  rangeMaxWidth: number;
  rangeMaxDrift: number;
  /** Re-accumulation / re-distribution: reaction depth bounds, bars from the trend extreme to the AR, MA50 slope span. */
  reMinDepth: number;
  reMaxDepth: number;
  reReactionBars: number;
  /** Bars before the AR searched for the trend extreme (a top's reaction can run longer than `reReactionBars`). */
  reLegBars: number;
  reTrendBars: number;
  /**
   * Context for ranges in a trend: the trend extreme must be the extreme of the last `reExtremeBars`
   * bars, and after an advance of `reExtendedRise` or more (× board scale) from the low of the last
   * `reYearBars` bars the reaction is read as distribution, not re-accumulation. `reExtremeBars` 120
   * (half a year of highs) instead of 60 removes the 13 ACC_A readings at the S&P 2000-09-01 top (a
   * rally to a 60-bar but not a 120-bar high inside a topping range is no uptrend to re-accumulate):
   * wrong side 14 → 1, AR precision .563 → .600; its one cost is an extra SC on S&P 2000-10-13.
   */
  reExtremeBars: number;
  reYearBars: number;
  reExtendedRise: number;
  /**
   * Clustered climax (real markets rarely print one 2× bar): the extreme ends a cluster of up to
   * `clusterBars` bars, is the `clusterTrendBars`-bar extreme after a fall (rise) of at least
   * `scDrawdown` (`bcRise`), and the cluster's heaviest volume is ≥ `clusterVolRatio` × the median
   * of the `clusterBaseBars` bars before it or at the series' own `clusterVolPct` percentile of the
   * last `clusterPctBars` bars; spread (≥ `clusterSr` on one bar) or a fall of ≥ `clusterAtr` ATR over
   * the cluster is the price evidence.
   */
  clusterBars: number;
  clusterTrendBars: number;
  clusterBaseBars: number;
  clusterPctBars: number;
  scDrawdown: number;
  bcRise: number;
  clusterVolRatio: number;
  clusterVolPct: number;
  clusterSr: number;
  clusterAtr: number;
  /**
   * A clustered climax ends a trend, not a first break: the cluster's extreme comes at least this
   * many bars after the opposite extreme of the `clusterTrendBars` window (the high an SC's fall began at).
   */
  clusterMinTrendBars: number;
  /**
   * A selling climax's effort often lands on the reversal bar right after the low (panic volume on
   * the first up day). Up to `clusterAfterBars` bars after the extreme join the cluster's volume
   * test while none of them undercuts it; such an episode needs the reversal to be its heaviest bar,
   * the low's bar to close in its upper half, the low to be the lowest of `clusterPctBars` bars,
   * both volume measures and a fall of `clusterAfterDepth` × `scDrawdown`; the climax keeps the
   * effort of its bars up to the low.
   */
  clusterAfterBars: number;
  clusterAfterDepth: number;
  /** A trend reaction whose mean volume exceeds the prior leg's by this factor flips the side. */
  heavyReaction: number;
  /**
   * A markup (markdown) outside a structure ends at a reaction (rally) from its extreme close of at
   * least `trendEndDepth` (× board scale) and `trendEndAtr` ATR: NONE, the trend paused or turned.
   */
  trendEndDepth: number;
  trendEndAtr: number;
  /** Phase FSM: consecutive closes beyond the range for D→E and E→MARKUP; failure margin. */
  phaseEBars: number;
  markupBars: number;
  failMargin: number;
}

/** Defaults from DOMAIN.md §1.13. */
export const DEFAULT_PARAMS: EngineParams = {
  avgWindow: 20,
  climaxVr: 2.0,
  climaxSr: 1.5,
  scRet60: -0.15,
  bcRet60: 0.2,
  climaxLookback: 60,
  arWindow: 10,
  arMinMove: 0.03,
  arTrackBars: 40,
  arZone: 0.15,
  stBand: 0.02,
  stMaxVolShare: 0.8,
  stWindow: 40,
  // The zone was the 35% of the range the scan treats as "not yet away" from the climax side (real
  // suite ST .17/.60 → .22/.67: SSE 2008-12-31, 9% above the SC low on 0.51×). 0.45, with the tests
  // replayed when a late AR confirms: ST .435/.750 → .478/.769 (SSE 2018-11-30, 42% up the range on
  // 0.75×); 0.5 adds an unmatched one (SSE 2018-12-10, 50% up). The distribution mirror is off (0):
  // with 13 wrong-side readings it was turned off; re-measured at 1 wrong side it changes no real
  // figure, so it stays off.
  stZone: 0.45,
  stZoneVr: 0.8,
  stZoneDist: 0,
  // Real suite: ST .217/.667 → .261/.714 (S&P 2010-05-25, 2.3% under the flash-crash low 13 bars
  // after the AR, closed at the high); nothing else moves.
  stUndercutMax: 0.05,
  // Real suite: ST .261/.714 → .348/.700 (S&P 2011-09-22 at 1.04× and 2016-02-11 at 0.86× the
  // cluster's heaviest bar, both on half its spread; one extra ST at S&P 2016-02-08); 1.1–1.25 and
  // 0.6–0.7 read the same; the synthetic goals do not move.
  stNarrowVolShare: 1.2,
  stNarrowSr: 0.6,
  // Real suite: ST precision .667 → .80 alone (S&P 2009-02-23 closed at its low, cp 0.03); held-out
  // synthetic ST .989/.983 → .989/.986.
  stCloseOff: 0.2,
  springMinBarsAfterAr: 15,
  // 0.5% (WyckoffAgent's S·0.995) → 0.3%: real Spring/UTAD .60/.60 → .80/.667 (SSE 2019-01-04, 0.34%
  // under the SC low, a wide reversal closing at the high); 0.2% reads the same; ST, SOS/SOW, wrong
  // side and the synthetic goals do not move (the minimum also bounds UT and the ST's "at the low").
  springMinPen: 0.003,
  springMaxPen: 0.05,
  reclaimBars: 2,
  // Real suite Spring/UTAD .80/.667 → .80/.80 (S&P 2002-07-03, a 1.0% dip on 1.00× volume and 0.90×
  // the spread, failed a week later); 0.9–1.1 read the same, the synthetic goals move from 1.2 on.
  spring2MinSr: 1.0,
  testFrom: 3,
  testTo: 15,
  testBand: 0.03,
  breakMargin: 0.01,
  breakSr: 1.2,
  // DOMAIN.md says 1.5; real breakouts (S&P 500, SSE) rarely print 1.5× the 20-bar average, and the
  // labelled real suite reads more SOS/SOW at 1.2 without losing precision (synthetic goals unchanged).
  breakVr: 1.2,
  sosCp: 0.7,
  sowCp: 0.3,
  pullbackWindow: 10,
  buBand: 0.03,
  // WyckoffAgent uses 0.65 on a 3-bar median; a 2–5-bar pullback median under lognormal volume noise
  // (σ ≈ 0.3) crosses it too often, so the rule set takes 0.75 (precision unchanged on the schematics).
  pullbackDryShare: 0.75,
  // DOMAIN.md says 1.5; like breakVr, real index thrusts rarely print it: the S&P 2007-10-11 UTAD (1.3%
  // over the July BC, reversed to a close in its lower third) came on 1.29×. Real Spring/UTAD .60/.667
  // → .80/.714 (that one label); held-out synthetic and the 300 schematics unchanged.
  utVr: 1.2,
  utShadow: 0.35,
  evrVr: 1.8,
  evrMaxPct: 0.02,
  evrMaxSr: 1.2,
  frozenPct: 0.01,
  pivotK: 3,
  pivotAtr: 1.0,
  rangeWindow: 90,
  rangeMinBars: 40,
  rangeMinWidth: 0.04,
  rangeMaxWidth: 0.45,
  rangeMaxDrift: 0.18,
  reMinDepth: 0.06,
  reMaxDepth: 0.25,
  reReactionBars: 15,
  // S&P 2007-07-16 → 08-16: the top's reaction took 23 bars to its low.
  reLegBars: 25,
  reTrendBars: 20,
  reExtremeBars: 120,
  reYearBars: 250,
  reExtendedRise: 1.0,
  clusterBars: 5,
  clusterTrendBars: 120,
  clusterBaseBars: 100,
  clusterPctBars: 250,
  scDrawdown: 0.12,
  bcRise: 0.2,
  clusterVolRatio: 1.4,
  clusterVolPct: 0.9,
  clusterSr: 1.3,
  clusterAtr: 2.5,
  clusterMinTrendBars: 20,
  clusterAfterBars: 1,
  clusterAfterDepth: 1.5,
  heavyReaction: 1.15,
  // Was the re-accumulation depth (6%, 2.5 ATR). Reading MARKUP at a top is the worse error, a NONE
  // in a pausing trend the mild one: at 4% / 1.5 ATR the SSE 2007-10-16 top reads NONE from +3 (a
  // 4.5% reaction, 1.5 ATR) — wrong side 1 → 0 of 403; nothing else on the real suite or the synthetic
  // goals moves. At the edge: 5% or 2 ATR leave that reading at MARKUP.
  trendEndDepth: 0.04,
  trendEndAtr: 1.5,
  phaseEBars: 10,
  markupBars: 20,
  failMargin: 0.05,
};

/** Price-threshold multiplier per A-share board (WyckoffAgent); volume ratios are never scaled. */
export const BOARD_SCALE: Record<Board, number> = { main: 1.0, chinext: 1.2, star: 1.4, bse: 1.2 };

/** Board of an A-share code: 300/301 ChiNext, 688/689 STAR, 8xx/4xx/92x BSE, else main. */
export function boardOf(symbol: string): Board {
  const code = symbol.replace(/\D/g, "").slice(-6);
  if (/^30[01]/.test(code)) return "chinext";
  if (/^68[89]/.test(code)) return "star";
  if (/^(8|4|92)/.test(code)) return "bse";
  return "main";
}

/** Merges caller overrides over the defaults. */
export function resolveParams(overrides?: Partial<EngineParams>): EngineParams {
  return overrides ? { ...DEFAULT_PARAMS, ...overrides } : DEFAULT_PARAMS;
}
