/**
 * The turn stream's own parts: every `data-*` part the runtime emits and the `finish` part's
 * metadata, as zod schemas both ends import — the worker builds parts with `dataPart`, the web parses
 * them with these schemas. Figures a stored event may lack (older turns) default to 0.
 */
import { z } from "zod";
import { TaskProgress, TaskStatus } from "./task";

/** Where a turn stands: the stored turn's status and the `metadata.status` of its assistant message. */
export const TurnStatus = z.enum(["running", "awaiting_approval", "done", "cancelled", "error", "rounds_exceeded"]);
export type TurnStatus = z.infer<typeof TurnStatus>;

const count = z.number().nonnegative().default(0);

/** Token and cost figures of a round or a whole turn. */
export const UsageFigures = z.object({
  inputTokens: count,
  outputTokens: count,
  reasoningTokens: count,
  /** Input tokens read from the provider's prompt cache. */
  cachedInputTokens: count,
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens: count,
  /** US dollars by the configured model prices (0 when none are set). */
  costUsd: count,
});
export type UsageFigures = z.infer<typeof UsageFigures>;

/** `data-usage`: one model round's figures and the turn's running total. */
export const UsageData = UsageFigures.extend({
  round: z.number().int().positive(),
  total: UsageFigures.optional(),
});
export type UsageData = z.infer<typeof UsageData>;

/** `data-model-start`: a model call of round `round` begins (attempt n, on model `model`). */
export const ModelStartData = z.object({
  round: z.number().int().positive(),
  attempt: z.number().int().positive(),
  model: z.string(),
});
export type ModelStartData = z.infer<typeof ModelStartData>;

/**
 * `data-retry`: the round is tried again — after a provider failure (`reason` is the failure kind;
 * `to` differs from `from` on a switch to the fallback model) or after the loop guard found an answer
 * that skipped the expected tool (`reason: "loop_guard"`).
 */
export const RetryData = z.object({
  round: z.number().int().positive(),
  reason: z.string(),
  status: z.number().int().nullable().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  delayMs: z.number().nonnegative().optional(),
  tool: z.string().optional(),
  attempt: z.number().int().positive().optional(),
  planOnly: z.boolean().optional(),
});
export type RetryData = z.infer<typeof RetryData>;

/**
 * `data-guard`: a guard stepped in — the doom-loop guard stopped a batch (`how`, `count`), or the loop
 * guard let an unverified answer through with a warning placed before it (`placement: "prefix"`).
 */
export const GuardData = z.object({
  kind: z.enum(["loop_guard", "doom_loop"]),
  tool: z.string(),
  placement: z.literal("prefix").optional(),
  text: z.string().optional(),
  how: z.string().optional(),
  count: z.number().int().positive().optional(),
});
export type GuardData = z.infer<typeof GuardData>;

/** `data-notification`: the turn reports a background task's result. */
export const NotificationData = z.object({ taskId: z.string(), text: z.string() });
export type NotificationData = z.infer<typeof NotificationData>;

/** Sub-agent run states. */
export const SubagentStatus = z.enum(["running", "done", "error"]);
export type SubagentStatus = z.infer<typeof SubagentStatus>;

/** `data-subagent` (id = the delegate call's id, updated in place): a sub-agent's progress. */
export const SubagentData = z.object({
  agent: z.string(),
  task: z.string(),
  text: z.string(),
  status: SubagentStatus,
});
export type SubagentData = z.infer<typeof SubagentData>;

/** `data-task` (id = the task id, updated in place): a background task's progress, as `GET /api/tasks/:id`. */
export const TaskData = z.object({
  id: z.string(),
  kind: z.string(),
  status: TaskStatus,
  /** `detail` is display text; a part without it shows none. */
  progress: TaskProgress.extend({ detail: z.string().default("") }),
  error: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  result: z.json().optional(),
});
export type TaskData = z.infer<typeof TaskData>;

/**
 * `data-compaction`: the context was summarised (`tokensBefore`/`tokensAfter`…), a summary failed
 * (`failed`, `reason`), or the oldest messages were cut to fit (`truncatedMessages`).
 */
export const CompactionData = z.looseObject({
  round: z.number().int().positive(),
  window: z.number().int().positive(),
  failed: z.boolean().optional(),
  reason: z.string().optional(),
  tokensBefore: z.number().optional(),
  truncatedMessages: z.number().int().optional(),
});
export type CompactionData = z.infer<typeof CompactionData>;

/**
 * `data-pipeline-step` (transient: never part of the stored message): pipeline step `index` of `of`
 * begins; the audit trail seals one entry per step from where these fall in the event log.
 */
export const PipelineStepData = z.object({ index: z.number().int(), name: z.string(), of: z.number().int() });
export type PipelineStepData = z.infer<typeof PipelineStepData>;

/** `data-warning`: something the reader should know went wrong without ending the turn (a malformed chunk was skipped). */
export const WarningData = z.object({ kind: z.string(), message: z.string(), excerpt: z.string().optional() });
export type WarningData = z.infer<typeof WarningData>;

/** Each `data-*` part's payload, by part type. */
export const DATA_PARTS = {
  "data-model-start": ModelStartData,
  "data-usage": UsageData,
  "data-retry": RetryData,
  "data-guard": GuardData,
  "data-notification": NotificationData,
  "data-subagent": SubagentData,
  "data-task": TaskData,
  "data-compaction": CompactionData,
  "data-pipeline-step": PipelineStepData,
  "data-warning": WarningData,
} as const;

/** The `data-*` part types of the stream. */
export type DataPartType = keyof typeof DATA_PARTS;

/** A `data-*` part as it travels (a `UIMessageChunk` of the AI SDK's data kind). */
export type DataPart<K extends DataPartType = DataPartType> = {
  [T in K]: { type: T; id?: string; data: z.input<(typeof DATA_PARTS)[T]> };
}[K];

/** Builds a `data-*` part; `id` makes later parts with the same id replace it in place. */
export function dataPart<K extends DataPartType>(
  type: K,
  data: z.input<(typeof DATA_PARTS)[K]>,
  id?: string,
): DataPart<K> {
  return (id === undefined ? { type, data } : { type, id, data }) as DataPart<K>;
}

/**
 * What a reader accepts: the same payloads, except that the round (and a compaction's window) may be
 * missing — they locate a part in the turn and change nothing in how it reads.
 */
const READ_PARTS = {
  ...DATA_PARTS,
  "data-retry": RetryData.partial({ round: true }),
  "data-compaction": CompactionData.partial({ round: true, window: true }),
} as const;

/** A data part's payload as a reader gets it. */
export type ReadDataPart<K extends DataPartType> = z.output<(typeof READ_PARTS)[K]>;

/** Parses a part's payload by its type; null when it does not parse. */
export function parseDataPart<K extends DataPartType>(type: K, data: unknown): ReadDataPart<K> | null {
  const parsed = READ_PARTS[type].safeParse(data);
  return parsed.success ? (parsed.data as ReadDataPart<K>) : null;
}

/** The `finish` part's `messageMetadata`: the turn's usage, timing, model and rounds (and a pipeline's progress). */
export const FinishMetadata = z.object({
  usage: UsageFigures,
  timing: z.object({
    startedAt: z.string(),
    ms: z.number().nonnegative(),
    /** Time to the first text, reasoning or tool output; null when there was none. */
    firstOutputMs: z.number().nonnegative().nullable().optional(),
  }),
  model: z.string(),
  rounds: z.number().int().nonnegative(),
  pipeline: z.object({ steps: z.number().int().positive(), completed: z.number().int().nonnegative() }).optional(),
});
export type FinishMetadata = z.infer<typeof FinishMetadata>;
