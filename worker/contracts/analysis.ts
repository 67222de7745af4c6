/**
 * The Wyckoff analysis contract (CONTRACTS.md "The analysis shape"): daily bars in, one analysis out.
 * Shared by `POST /api/analyze`, `GET /api/market/bars/:symbol`, the `analyze_stock` tool and the web.
 */
import { z } from "zod";

/** Most bars `POST /api/analyze` accepts; more is a 413. */
export const MAX_ANALYZE_BARS = 5000;
/** Fewest bars the engine analyses; fewer is `insufficient_data`. */
export const MIN_ANALYZE_BARS = 60;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date `YYYY-MM-DD` that exists (no 2024-02-30). */
export const BarDate = z
  .string()
  .regex(DATE_RE, "date must be YYYY-MM-DD")
  .refine((s) => {
    const y = Number(s.slice(0, 4));
    const m = Number(s.slice(5, 7));
    const d = Number(s.slice(8, 10));
    if (m < 1 || m > 12 || d < 1) return false;
    const days = [
      31,
      y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
      31,
      30,
      31,
      30,
      31,
      31,
      30,
      31,
      30,
      31,
    ];
    return d <= (days[m - 1] ?? 0);
  }, "date is not a real calendar day");
export type BarDate = z.infer<typeof BarDate>;

const price = z.number().finite().positive();

/** One daily bar, oldest first in any series. `volume` is in shares; `amount` in currency. */
export const Bar = z
  .object({
    date: BarDate,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: z.number().finite().nonnegative(),
    amount: z.number().finite().nonnegative().optional(),
  })
  .refine((b) => b.high >= b.low && b.high >= b.open && b.high >= b.close && b.low <= b.open && b.low <= b.close, {
    message: "high must be ≥ open, close and low, and low ≤ open and close",
  });
export type Bar = z.infer<typeof Bar>;

/** Market a series belongs to: A-share rules (frozen bars, board scaling) apply to CN only. */
export const Market = z.enum(["CN", "US"]);
export type Market = z.infer<typeof Market>;

/** A-share board; price thresholds scale by board (main 1.0, ChiNext 1.2, STAR 1.4, BSE 1.2). */
export const Board = z.enum(["main", "chinext", "star", "bse"]);
export type Board = z.infer<typeof Board>;

/** A bar series that is sorted ascending with unique dates; each failure names the first offending bar. */
export function barSeries(min: number, max: number) {
  return z
    .array(Bar)
    .max(max, `too many bars: at most ${max} are accepted`)
    .superRefine((bars, ctx) => {
      if (bars.length < min) {
        ctx.addIssue({ code: "custom", message: `not enough bars: need at least ${min}, got ${bars.length}` });
        return;
      }
      for (let i = 1; i < bars.length; i++) {
        const prev = bars[i - 1];
        const cur = bars[i];
        if (!prev || !cur) continue;
        if (cur.date === prev.date) {
          ctx.addIssue({ code: "custom", path: [i, "date"], message: `duplicate date ${cur.date} at bars[${i}]` });
          return;
        }
        if (cur.date < prev.date) {
          ctx.addIssue({
            code: "custom",
            path: [i, "date"],
            message: `bars are not sorted ascending: ${cur.date} at bars[${i}] comes after ${prev.date}`,
          });
          return;
        }
      }
    });
}

/** Body of `POST /api/analyze`. `bars` ≤ 5,000 (more → 413), ≥ 60, sorted ascending, unique dates. */
export const AnalyzeRequest = z.object({
  symbol: z.string().min(1).max(32).optional(),
  /** "CN" or "US", in any case ("cn", "Us"). */
  market: z
    .string()
    .transform((m) => m.trim().toUpperCase())
    .pipe(Market)
    .optional(),
  bars: barSeries(MIN_ANALYZE_BARS, MAX_ANALYZE_BARS),
  benchmark: barSeries(1, MAX_ANALYZE_BARS).optional(),
});
export type AnalyzeRequest = z.infer<typeof AnalyzeRequest>;

/** Phase of the Wyckoff state machine (DOMAIN.md §1.13 F). */
export const PhaseName = z.enum([
  "NONE",
  "ACC_A",
  "ACC_B",
  "ACC_C",
  "ACC_D",
  "ACC_E",
  "MARKUP",
  "DIST_A",
  "DIST_B",
  "DIST_C",
  "DIST_D",
  "DIST_E",
  "MARKDOWN",
]);
export type PhaseName = z.infer<typeof PhaseName>;

/** Wyckoff event types the engine detects. */
export const EventType = z.enum([
  "PS",
  "SC",
  "AR",
  "ST",
  "Spring",
  "Test",
  "SOS",
  "LPS",
  "BU",
  "PSY",
  "BC",
  "UT",
  "UTAD",
  "SOW",
  "LPSY",
  "EVR",
]);
export type EventType = z.infer<typeof EventType>;

/** One detected event. `date` is the bar it refers to; `confirmedAt` the first bar it was knowable at. */
export const WyckoffEvent = z.object({
  type: EventType,
  date: BarDate,
  confirmedAt: BarDate,
  price: z.number(),
  volumeRatio: z.number(),
  confidence: z.number().min(0).max(1),
  reasons: z.array(z.string()),
  /** Sub-kind: Spring "#1"/"#2"/"#3", SOS "JAC"/"strong"/"exit"/"markup" (a further SOS of phase D), SOW "exit"/"markdown", EVR "absorption"/"supply", AR "down", BC "weakClose". */
  variant: z.string().optional(),
});
export type WyckoffEvent = z.infer<typeof WyckoffEvent>;

/** L4 trigger kinds (DOMAIN.md §1.11 L4). */
export const TriggerType = z.enum(["spring", "sos", "lps", "evr", "compression", "trend_pullback"]);
export type TriggerType = z.infer<typeof TriggerType>;

/** Cross-day confirmation state of a trigger. */
export const TriggerStatus = z.enum(["pending", "confirmed", "expired"]);
export type TriggerStatus = z.infer<typeof TriggerStatus>;

/** A trigger and where its confirmation stands as of the last bar. */
export const Trigger = z.object({
  type: TriggerType,
  date: BarDate,
  status: TriggerStatus,
  /** Bar date at which the status last changed (confirmed or expired); absent while pending. */
  resolvedAt: BarDate.optional(),
  reasons: z.array(z.string()),
});
export type Trigger = z.infer<typeof Trigger>;

/** Health grade. */
export const HealthGrade = z.enum(["healthy", "warning", "danger"]);
export type HealthGrade = z.infer<typeof HealthGrade>;

/** Health 0–100 with the points each component contributed and the reasons behind them. */
export const Health = z.object({
  score: z.number().min(0).max(100),
  grade: HealthGrade,
  reasons: z.array(z.string()),
  components: z.object({
    structure: z.number(),
    events: z.number(),
    effortResult: z.number(),
    relativeStrength: z.number(),
    trend: z.number(),
    penalties: z.number(),
  }),
});
export type Health = z.infer<typeof Health>;

/** The trading range in force at the last bar. */
export const TradingRange = z.object({
  support: z.number(),
  resistance: z.number(),
  from: BarDate,
  to: BarDate,
  quality: z.number().min(0).max(1),
  mode: z.enum(["event", "pivot"]),
});
export type TradingRange = z.infer<typeof TradingRange>;

/** Structural and trailing stops (DOMAIN.md §1.11 L5). */
export const Stops = z.object({
  structural: z.number().nullable(),
  trailing: z.number().nullable(),
  atr: z.number().nullable(),
  reasons: z.array(z.string()),
});
export type Stops = z.infer<typeof Stops>;

/** Price targets: point-and-figure horizontal count and measured move. */
export const Targets = z.object({
  pointAndFigure: z
    .object({ conservative: z.number(), aggressive: z.number().nullable(), columns: z.number(), box: z.number() })
    .nullable(),
  measuredMove: z.number().nullable(),
});
export type Targets = z.infer<typeof Targets>;

const num = z.number().nullable();

/** Indicator snapshot at the last bar; null when there is not enough history. */
export const IndicatorSnapshot = z.object({
  close: z.number(),
  ma20: num,
  ma50: num,
  ma200: num,
  atr14: num,
  atrPct: num,
  rsi14: num,
  volumeRatio: num,
  spreadRatio: num,
  dryUp: num,
  upDownVolume40: num,
  noDemand20: z.number(),
  noSupply20: z.number(),
  rs10: num,
  rs3: num,
  mansfield: num,
});
export type IndicatorSnapshot = z.infer<typeof IndicatorSnapshot>;

/** The engine's answer for one series. */
export const Analysis = z.object({
  symbol: z.string(),
  asOf: BarDate,
  phase: z.object({ name: PhaseName, since: BarDate.nullable() }),
  tradingRange: TradingRange.nullable(),
  events: z.array(WyckoffEvent),
  triggers: z.array(Trigger),
  health: Health,
  stops: Stops,
  targets: Targets,
  indicators: IndicatorSnapshot,
  /** "absent" when the input's volume is unusable (all zero, mostly zero, constant): a price-only reading, no volume-based events. */
  volume: z.literal("absent").optional(),
  /** Caveats about the input or the reading (e.g. a probable corporate action and how it was handled). */
  warnings: z.array(z.string()).optional(),
  /** Days read as probable corporate actions (a move beyond the price limit, or a US gap beyond 30%). */
  corporateActions: z.array(z.object({ date: BarDate, change: z.number(), ratio: z.number() })).optional(),
  /** Structures the scan closed, with how they ended, oldest first (most recent 10). */
  structures: z
    .array(
      z.object({
        side: z.enum(["accumulation", "distribution"]),
        from: BarDate,
        to: BarDate,
        support: z.number(),
        resistance: z.number(),
        outcome: z.enum(["markup", "markdown", "failed", "superseded", "stale"]),
      }),
    )
    .optional(),
});
export type Analysis = z.infer<typeof Analysis>;
