/**
 * Benchmark figures: each bench file calls `record()`; `npm run bench` (scripts/bench.mjs) gathers
 * the lines, prints a table and writes bench/results.json (CONTRACTS.md `npm run bench`).
 */
import { appendFileSync } from "node:fs";

/** One figure of bench/results.json. */
export interface Metric {
  id: string;
  name: string;
  value: number;
  unit: string;
  goal?: number;
  baseline?: number;
  ratio?: number;
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
