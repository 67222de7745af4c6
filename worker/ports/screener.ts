/**
 * Port: the screening funnel run in process, over cached bars (no network, no queue): what a
 * synchronous caller (`run_funnel_simulation` over MCP) gets instead of a background task. The same
 * map (per-symbol features) and reduce (cross-sectional layers, regime) as the background screening.
 */
import type { ScreeningResult, ScreenInput } from "../contracts/screening";
import type { Result } from "../lib/result";

/** Runs a screening to completion. */
export interface Screener {
  run(input: ScreenInput, opts?: { maxCandidates?: number }): Promise<Result<ScreeningResult>>;
}
