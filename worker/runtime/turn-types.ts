/**
 * The shapes of a turn — its request, budgets, ports and result — shared by the loop (`run-turn.ts`),
 * the nested runs (sub-agents, pipeline steps) and the session host, so none of them imports another.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import type { Logger } from "../lib/log";
import type { Clock } from "../ports/clock";
import type { MemoryFlush } from "../ports/memory-flush";
import type { MemoryRecall } from "../ports/memory-recall";
import type { SpillStore } from "../ports/spill-store";
import type { BoundTool } from "../tools/bind";
import type { ToolDeps } from "../tools/deps";
import type { Lang } from "./errors";
import type { ModelChain } from "./model";
import type { RoundUsage } from "./stream-round";
import type { ApprovalGate, PendingCall, ToolOutcome } from "./tool-executor";
import type { ModelPrice } from "./usage";
import type { TraceEvent } from "./trace";
import type { UsageEntry } from "./usage";

/** Seed 000: at most 15 tool rounds per turn. */
export const MAX_TOOL_ROUNDS = 15;

/** Budgets of a turn. */
export interface TurnLimits {
  maxRounds: number;
  /** No chunk for this long → the round fails (`LLM_IDLE_TIMEOUT_MS`, default 60 s). */
  chunkIdleMs: number;
  /** Whole turn, working time only (`LLM_TURN_TIMEOUT_MS`, default 600 s). */
  turnMs: number;
  /** Retries of the same model after a retriable failure before any output (no fallback configured). */
  maxModelRetries: number;
  /** LLM_CONTEXT_WINDOW; otherwise inferred from the active model's name. */
  contextWindow?: number;
}

/** The defaults: MAX_TOOL_ROUNDS (15) rounds, a 60 s idle watchdog, 600 s per turn, 2 model retries. */
export const DEFAULT_LIMITS: TurnLimits = {
  maxRounds: MAX_TOOL_ROUNDS,
  chunkIdleMs: 60_000,
  turnMs: 600_000,
  maxModelRetries: 2,
};

/** Ports and sinks a turn uses. */
export interface TurnDeps {
  models: ModelChain;
  tools: readonly BoundTool[];
  toolDeps: ToolDeps;
  gate: ApprovalGate;
  /** Every stream part, in order (the session stores and broadcasts it). */
  emit(chunk: UIMessageChunk): void;
  /** Model messages appended by the turn, as they become final (the session persists them). */
  onMessages(messages: ModelMessage[]): void;
  /** A compaction happened: the first `coveredCount` transcript messages are now `summary`. */
  onCompaction(state: { summary: string; coveredCount: number }): void;
  /** Saves stable preferences before a head is summarised away. */
  memoryFlush: MemoryFlush;
  /** Refusal text for tools that exist but are not visible in this loop (sub-agents). */
  refuse?: (toolName: string) => string | undefined;
  /** Every registered tool (sub-agents pick their subsets from it); defaults to `tools`. */
  allTools?: readonly BoundTool[];
  /** True inside a sub-agent or pipeline step: no further delegation. */
  nested?: boolean;
  /** Long-term memory recalled before the first round (absent until memory exists). */
  memory?: MemoryRecall;
  /** Receives the turn's trace events (the session writes them to R2). */
  trace?: (event: TraceEvent) => void;
  /** Prices per model id (settings), for the cost in `data-usage`; undefined → cost 0. */
  priceOf?: (modelId: string) => ModelPrice | undefined;
  /** Where oversized tool results go (R2); undefined keeps only a preview. */
  spills: SpillStore | undefined;
  log: Logger;
  now: Clock;
  newId(): string;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** What to run. */
export interface TurnRequest {
  sessionId: string;
  turnId: string;
  userId: string;
  messageId: string;
  /** Byte-stable across rounds and turns (cacheable); per-turn facts go in `context`. */
  system: string;
  /** Today's date and matched hints, put in front of this turn's question in the model's view. */
  context?: string;
  /**
   * The conversation not yet covered by a summary, ending with the user's message (or with
   * unanswered tool calls when resuming); `summary` covers the first `coveredCount` messages before it.
   */
  history: ModelMessage[];
  summary?: { text: string; coveredCount: number };
  lang: Lang;
  /**
   * Resuming a turn after an approval across DO eviction: the last round's calls still without a
   * result, and the outcomes of those that had finished (recovered from the event log, not re-run).
   */
  resume?: { calls: PendingCall[]; done: ToolOutcome[]; order: string[] };
  /** The caller already emitted `start` (so the stream's first byte does not wait for set-up). */
  started?: boolean;
  signal: AbortSignal;
  limits?: Partial<TurnLimits>;
}

/** How the turn ended. */
export interface TurnResult {
  status: "done" | "cancelled" | "error" | "rounds_exceeded";
  rounds: number;
  /** Every model call of the turn (its rounds, sub-agents, compaction summaries), counted once. */
  usage: RoundUsage;
  modelId: string;
  /** `usage` split by purpose and model (sums to `usage`); absent = all of it is purpose `turn`. */
  byPurpose?: UsageEntry[];
  error?: string;
  /** The last view sent to the model (system prompt and messages), for the audit trail's hashes. */
  view?: { system: string; messages: ModelMessage[] };
}

/** The loop itself, as nested runs receive it (injected, so they do not import the loop). */
export type RunTurn = (req: TurnRequest, deps: TurnDeps) => Promise<TurnResult>;
