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

/**
 * What a model call was for. `turn`: the session's own rounds; `subagent`: a delegation's rounds;
 * `report`: the background report writer; `summary`: compaction; `memory`: the long-term memory pass.
 */
export type UsagePurpose = "turn" | "subagent" | "report" | "summary" | "memory";

/** Usage of one purpose and model (the unit the totals and `GET /api/usage` are kept in). */
export interface UsageEntry {
  purpose: UsagePurpose;
  modelId: string;
  /** Model calls (rounds or generateText calls) in this entry. */
  calls: number;
  usage: RoundUsage;
}

/** Adds `entry` to `ledger`, merging with the entry of the same purpose and model. */
export function addEntry(ledger: readonly UsageEntry[], entry: UsageEntry): UsageEntry[] {
  const at = ledger.findIndex((e) => e.purpose === entry.purpose && e.modelId === entry.modelId);
  if (at === -1) return [...ledger, entry];
  const prev = ledger[at] as UsageEntry;
  const merged = { ...prev, calls: prev.calls + entry.calls, usage: addUsage(prev.usage, entry.usage) };
  return ledger.map((e, i) => (i === at ? merged : e));
}

/** The AI SDK's usage (`generateText`/`streamText` results) as a RoundUsage with cost 0. */
export function fromSdkUsage(u: {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  outputTokenDetails?: { reasoningTokens?: number | undefined };
  inputTokenDetails?: { cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined };
}): RoundUsage {
  return {
    inputTokens: u.inputTokens ?? 0,
    outputTokens: u.outputTokens ?? 0,
    reasoningTokens: u.outputTokenDetails?.reasoningTokens ?? 0,
    cachedInputTokens: u.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: u.inputTokenDetails?.cacheWriteTokens ?? 0,
    costUsd: 0,
  };
}

/** Receives the usage of a model call made outside the round loop (summary, report, memory). */
export type UsageSink = (usage: RoundUsage) => void;
