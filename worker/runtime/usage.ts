/** Token usage arithmetic and cost from configured per-model prices. */
import type { RoundUsage } from "./stream-round";

/** No usage yet. */
export const ZERO_USAGE: RoundUsage = {
  inputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};

/** Adds two usages. */
export function addUsage(a: RoundUsage, b: RoundUsage): RoundUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

/** Per-million-token prices of a model (USD). */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** The cost of a round's usage: uncached input, cache reads and writes, output (reasoning included). */
export function costOf(u: RoundUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const uncached = Math.max(0, u.inputTokens - u.cachedInputTokens - u.cacheWriteTokens);
  const micro =
    uncached * price.input +
    u.cachedInputTokens * (price.cacheRead ?? price.input) +
    u.cacheWriteTokens * (price.cacheWrite ?? price.input) +
    u.outputTokens * price.output;
  return micro / 1_000_000;
}
