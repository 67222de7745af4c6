/** Helpers of the real-bar engine tests: read a real series with the engine, cut windows around a date. */
import type { Bar } from "../../worker/contracts/analysis";
import { analyze, type AnalyzeResult } from "../../worker/engine/analyze";
import type { EngineParams } from "../../worker/engine/params";
import { indexOnOrAfter, loadRealBars, realMarket } from "./real-bars";

/** The engine's reading of `bars` of the real `symbol` (its market from the symbol), with `params` if given. */
export function read(symbol: string, bars: readonly Bar[], params?: Partial<EngineParams>): AnalyzeResult {
  const r = analyze(bars, { symbol, market: realMarket(symbol), ...(params ? { params } : {}) });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The series from `before` bars before `date` through `after` bars after it. */
export function around(symbol: string, date: string, before: number, after: number): Bar[] {
  const all = loadRealBars(symbol);
  const i = indexOnOrAfter(all, date);
  return all.slice(Math.max(0, i - before), Math.min(all.length, i + after + 1));
}

/** Bars between two dates of `bars`. */
export const barsBetween = (bars: readonly Bar[], a: string, b: string): number =>
  Math.abs(indexOnOrAfter(bars, a) - indexOnOrAfter(bars, b));
