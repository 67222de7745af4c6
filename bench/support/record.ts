/**
 * Benchmark figures: each bench file calls `record()`; `npm run bench` (scripts/bench.mjs) gathers
 * the lines, prints a table with goals and writes bench/results.json (CONTRACTS.md `npm run bench`).
 * A per-call figure carries its median (`value`), mean and p90 (`summarize`); a figure measured at
 * several sizes carries `growth` (this size's median ÷ the smallest size's); every figure says in
 * `timed` exactly what its clock spans.
 */
import { appendFileSync } from "node:fs";

/** Median, mean and p90 of a sample, and its size. */
export interface Summary {
  median: number;
  mean: number;
  p90: number;
  n: number;
}

/** One figure of bench/results.json. */
export interface Metric {
  id: string;
  name: string;
  /** The headline: the median for a per-call figure. */
  value: number;
  unit: string;
  goal?: number;
  baseline?: number;
  ratio?: number;
  /** Mean of the sample behind `value` (per-call figures). */
  mean?: number;
  /** 90th percentile of the sample behind `value` (per-call figures). */
  p90?: number;
  /** Samples behind `value`. */
  n?: number;
  /** This size's median ÷ the smallest size's, and what the smallest size was. */
  growth?: { ratio: number; vs: string };
  /** Exactly what the clock spans (one line). */
  timed?: string;
}

/** Appends a figure to the run's record file (BENCH_RECORDS, set by scripts/bench.mjs). */
export function record(metric: Metric): void {
  const file = process.env.BENCH_RECORDS;
  if (!file) throw new Error("BENCH_RECORDS is not set: run benchmarks with `npm run bench`");
  appendFileSync(file, `${JSON.stringify(metric)}\n`);
}

/** Median of a sample (ms timings etc.). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] ?? Number.NaN;
  const lo = sorted[mid - 1] ?? hi;
  return sorted.length % 2 === 0 ? (lo + hi) / 2 : hi;
}

/** Nearest-rank percentile `p` (0–100) of a sample. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Median, mean and p90 of a sample. */
export function summarize(values: readonly number[]): Summary {
  return {
    median: median(values),
    mean: values.reduce((s, x) => s + x, 0) / Math.max(1, values.length),
    p90: percentile(values, 90),
    n: values.length,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The fields of a per-call figure from its sample: median as `value`, mean, p90 and n. */
export function timing(values: readonly number[]): Pick<Metric, "value" | "mean" | "p90" | "n"> {
  const s = summarize(values);
  return { value: round3(s.median), mean: round3(s.mean), p90: round3(s.p90), n: s.n };
}

/** `growth` of a size's median against the smallest size's. */
export function growth(medianHere: number, medianSmallest: number, smallest: string): NonNullable<Metric["growth"]> {
  return { ratio: round3(medianHere / medianSmallest), vs: smallest };
}
