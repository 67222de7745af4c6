/**
 * The agent loop (seed 000 §1): model → tools → observations → model, one `streamText` per round,
 * until the model answers without tools or MAX_TOOL_ROUNDS is reached. Provider failures before any
 * output switch to the fallback model or retry with backoff; cancel and the turn timeout stop it at
 * once. Pure application code over ports: it runs in plain Node with fakes.
 */
import type { ModelMessage, ToolSet, UIMessageChunk } from "ai";
import type { Logger } from "../lib/log";
import type { Clock } from "../ports/clock";
import type { BoundTool } from "../tools/bind";
import type { ToolDeps } from "../tools/deps";
import { diagnose, type Lang, type ModelFailure } from "./errors";
import type { ModelChain, NamedModel } from "./model";
import {
  RoundAborted,
  RoundFailure,
  streamRound,
  toolSchemas,
  type RoundResult,
  type RoundUsage,
} from "./stream-round";
import { executeCalls, type ApprovalGate, type PendingCall, type ToolOutcome } from "./tool-executor";
import { compactIfNeeded, viewOf, type Transcript } from "./context/compaction";
import { inferContextWindow } from "./context/model-metadata";
import { fitToBudget, shrinkStaleResults } from "./context/shrink";
import { extractiveSummarizer, modelSummarizer } from "./context/summarize";
import { requestTokens } from "./context/tokens";
import { outputKeysOf } from "./output-keys";
import { createSubagentRunner } from "./subagents";
import { canonicalArgs, detectDoomLoop, DOOM_LOOP_WINDOW, type SeenCall } from "./guards/doom-loop";
import {
  correctiveMessage,
  expectationFor,
  isPlanOnly,
  MAX_GUARD_RETRIES,
  unverifiedWarning,
} from "./guards/loop-guard";
import { lastUserText, recentTexts, toFlushMessage, toolResultMessage, withMemories } from "./transcript";
import { traceResult, type TraceEvent } from "./trace";
import type { MemoryFlush } from "../ports/memory-flush";
import type { MemoryRecall } from "../ports/memory-recall";
import type { SpillStore } from "../ports/spill-store";

/** Tokens kept free for the model's answer when fitting an oversized view. */
const OUTPUT_RESERVE_TOKENS = 4_096;

/** Seed 000: at most 15 tool rounds per turn. */
export const MAX_TOOL_ROUNDS = 15;

/** Budgets of a turn. */
export interface TurnLimits {
  maxRounds: number;
  /** No chunk for this long → the round fails (seed: 60 s). */
  chunkIdleMs: number;
  /** Whole turn (seed: 600 s). */
  turnMs: number;
  /** Retries of the same model after a retriable failure before any output (no fallback configured). */
  maxModelRetries: number;
  /** LLM_CONTEXT_WINDOW; otherwise inferred from the active model's name. */
  contextWindow?: number;
}

/** The defaults from the seeds. */
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
  system: string;
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
  usage: RoundUsage;
  modelId: string;
  error?: string;
}

const ROUNDS_EXCEEDED: Record<Lang, string> = {
  zh: "（Agent 工具调用轮次超限，已停止）",
  en: "(Tool-call rounds exceeded; the agent stopped.)",
};

class TurnTimeout extends Error {
  constructor(ms: number) {
    super(`turn exceeded ${ms} ms`);
    this.name = "TurnTimeout";
  }
}

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

function assistantMessage(round: RoundResult): ModelMessage {
  const content: Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string> = [];
  if (round.reasoning) content.push({ type: "reasoning", text: round.reasoning });
  if (round.text) content.push({ type: "text", text: round.text });
  for (const c of round.calls)
    content.push({ type: "tool-call", toolCallId: c.toolCallId, toolName: c.toolName, input: c.input });
  return { role: "assistant", content };
}

/** Runs one turn to its end and reports how it ended. Emits `start` … `finish` | `abort` | `error`. */
export async function runTurn(req: TurnRequest, deps: TurnDeps): Promise<TurnResult> {
  const limits: TurnLimits = { ...DEFAULT_LIMITS, ...req.limits };
  const started = deps.now();
  // The turn budget counts working time only: it stops while a person decides on an approval
  // (and a pending timer would also keep the Durable Object from idling while it waits).
  const timeout = new AbortController();
  let budgetLeft = limits.turnMs;
  let budgetFrom = deps.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const armBudget = () => {
    budgetFrom = deps.now();
    timer = setTimeout(() => timeout.abort(new TurnTimeout(limits.turnMs)), Math.max(0, budgetLeft));
  };
  const stopBudget = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    budgetLeft -= deps.now() - budgetFrom;
  };
  armBudget();
  const signal = AbortSignal.any([req.signal, timeout.signal]);
  const gate: ApprovalGate = {
    isAlwaysAllowed: (name) => deps.gate.isAlwaysAllowed(name),
    decided: (id) => deps.gate.decided(id),
    request: async (call) => {
      stopBudget();
      try {
        return await deps.gate.request(call);
      } finally {
        armBudget();
      }
    },
  };
  const tools = new Map(deps.tools.map((t) => [t.spec.name, t]));
  const schemas: ToolSet = toolSchemas(deps.tools);
  let transcript: Transcript = {
    summary: req.summary?.text ?? null,
    coveredCount: req.summary?.coveredCount ?? 0,
    messages: [...req.history],
  };
  const keysOf = outputKeysOf(deps.tools);
  // Sub-agents (seed 000 §8) run inside this turn; their rounds count against its budget.
  const toolDeps: ToolDeps = deps.nested
    ? { ...deps.toolDeps, subagents: undefined }
    : {
        ...deps.toolDeps,
        subagents: createSubagentRunner({
          request: req,
          deps,
          active: () => active,
          emit: (chunk) => emit(chunk),
          spend: (n) => {
            rounds += n;
            return Math.max(0, limits.maxRounds - rounds);
          },
          remaining: () => Math.max(0, limits.maxRounds - rounds),
        }),
      };
  let active: NamedModel = deps.models.primary;
  let usage: RoundUsage = ZERO_USAGE;
  let rounds = 0;
  let firstOutputMs: number | undefined;

  const emit = (chunk: UIMessageChunk) => {
    if (
      firstOutputMs === undefined &&
      (chunk.type === "text-delta" || chunk.type === "reasoning-delta" || chunk.type === "tool-input-start")
    ) {
      firstOutputMs = deps.now() - started;
    }
    deps.emit(chunk);
  };
  const append = (...added: ModelMessage[]) => {
    transcript.messages.push(...added);
    deps.onMessages(added);
  };
  const finish = (
    status: TurnResult["status"],
    finishReason: "stop" | "error" | "other",
    error?: string,
  ): TurnResult => {
    const metadata = {
      usage,
      timing: {
        startedAt: new Date(started).toISOString(),
        ms: deps.now() - started,
        firstOutputMs: firstOutputMs ?? null,
      },
      model: active.id,
      rounds,
    };
    emit({ type: "finish", finishReason, messageMetadata: metadata });
    const lastText = [...transcript.messages].reverse().find((m) => m.role === "assistant");
    deps.trace?.({
      type: "final",
      status,
      text:
        lastText && Array.isArray(lastText.content)
          ? lastText.content.map((p) => (p.type === "text" ? p.text : "")).join("")
          : "",
      rounds,
      usage: { ...usage },
      ms: deps.now() - started,
    });
    return { status, rounds, usage, modelId: active.id, ...(error !== undefined ? { error } : {}) };
  };
  // Guards (seed 000 §6): the calls seen this turn (doom-loop window) and the tool the question requires.
  const seen: SeenCall[] = [];
  const called = new Set<string>();
  const userText = lastUserText(req.history);
  const expectation = req.resume
    ? undefined
    : expectationFor(userText, recentTexts(req.history), new Set(tools.keys()));
  let guardRetries = 0;

  /** Splits a round's calls at the first doom-looping one: that call and the rest get errors. */
  const doomLoopErrors = (calls: PendingCall[]): { run: PendingCall[]; refused: ToolOutcome[] } => {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i] as PendingCall;
      const verdict = detectDoomLoop(seen, { toolName: call.toolName, args: canonicalArgs(call.input) });
      if (verdict.tripped) {
        emit({
          type: "data-guard",
          data: { kind: "doom_loop", tool: call.toolName, how: verdict.how, count: verdict.count },
        });
        const refused = calls.slice(i).map((c): ToolOutcome => {
          const message = `doom loop: ${c.toolName} was called with the same arguments ${verdict.count} times in the last ${DOOM_LOOP_WINDOW} calls; the batch was stopped. Change the approach or answer with what you have.`;
          emit({ type: "tool-output-error", toolCallId: c.toolCallId, errorText: `doom_loop: ${message}` });
          return { toolCallId: c.toolCallId, toolName: c.toolName, kind: "error", code: "doom_loop", message };
        });
        return { run: calls.slice(0, i), refused };
      }
      seen.push({ toolName: call.toolName, args: canonicalArgs(call.input) });
    }
    return { run: calls, refused: [] };
  };

  const runTools = async (requested: PendingCall[], done: ToolOutcome[] = [], order?: string[]) => {
    for (const c of requested) called.add(c.toolName);
    const { run: calls, refused } = doomLoopErrors(requested);
    const fresh: ToolOutcome[] = await executeCalls(
      calls,
      {
        tools,
        deps: toolDeps,
        context: { sessionId: req.sessionId, userId: req.userId, signal },
        gate,
        emit,
        newId: deps.newId,
        log: deps.log,
        spill: { store: deps.spills, turnId: req.turnId },
        ...(deps.refuse ? { refuse: deps.refuse } : {}),
      },
      signal,
    );
    for (const o of [...fresh, ...refused]) {
      deps.trace?.({
        type: "tool_result",
        round: rounds,
        tool: o.toolName,
        args: o.input ?? requested.find((c) => c.toolCallId === o.toolCallId)?.input ?? null,
        result: traceResult(
          o.kind === "ok"
            ? o.output
            : o.kind === "error"
              ? { error: { code: o.code, message: o.message } }
              : { denied: o.reason },
        ),
        ms: o.ms ?? 0,
        status: o.kind === "ok" ? "ok" : o.kind === "error" ? "error" : "denied",
      });
    }
    const all = [...done, ...fresh, ...refused];
    const sequence = order ?? requested.map((c) => c.toolCallId);
    all.sort((a, b) => sequence.indexOf(a.toolCallId) - sequence.indexOf(b.toolCallId));
    append(toolResultMessage(all));
  };

  // Recall (seed 000 §5): memories go around this turn's question in the view, never into storage.
  const turnQuestion = [...req.history].reverse().find((m) => m.role === "user");
  let memoryBlock: string | undefined;
  if (deps.memory && !req.resume && turnQuestion) {
    try {
      const recalled = await deps.memory.recall({ userId: req.userId, sessionId: req.sessionId, text: userText });
      if (recalled && recalled.block.trim() !== "") {
        memoryBlock = recalled.block;
        deps.trace?.({ type: "memory", ids: recalled.ids });
      }
    } catch (error) {
      deps.log.warn("memory_recall_failed", { error });
      deps.trace?.({
        type: "error",
        message: `memory recall failed, the turn goes on without memories: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  if (!req.resume && !req.started) emit({ type: "start", messageId: req.messageId });
  deps.trace?.({
    type: "init",
    userText,
    sessionId: req.sessionId,
    turnId: req.turnId,
    model: active.id,
    resumed: Boolean(req.resume),
  });
  try {
    if (req.resume) await runTools(req.resume.calls, req.resume.done, req.resume.order);
    while (rounds < limits.maxRounds) {
      rounds++;
      const round = await modelRound(rounds);
      round.usage.costUsd = costOf(round.usage, deps.priceOf?.(active.id));
      if (round.reasoning) deps.trace?.({ type: "thinking", round: rounds, text: round.reasoning });
      usage = addUsage(usage, round.usage);
      emit({ type: "data-usage", data: { round: rounds, ...round.usage, total: usage } });
      append(assistantMessage(round));
      if (round.calls.length === 0) {
        if (!expectation || called.has(expectation.tool)) return finish("done", "stop");
        if (guardRetries < MAX_GUARD_RETRIES) {
          guardRetries++;
          const planOnly = isPlanOnly(round.text);
          emit({
            type: "data-retry",
            data: { round: rounds, reason: "loop_guard", tool: expectation.tool, attempt: guardRetries, planOnly },
          });
          append({ role: "user", content: correctiveMessage(expectation, planOnly, req.lang) });
          continue;
        }
        const warning = unverifiedWarning(expectation, req.lang);
        emit({
          type: "data-guard",
          data: { kind: "loop_guard", tool: expectation.tool, placement: "prefix", text: warning },
        });
        emit({ type: "text-start", id: "guard-warning" });
        emit({ type: "text-delta", id: "guard-warning", delta: `\n\n${warning}` });
        emit({ type: "text-end", id: "guard-warning" });
        return finish("done", "stop");
      }
      await runTools(round.calls);
    }
    emit({ type: "text-start", id: "rounds-exceeded" });
    emit({ type: "text-delta", id: "rounds-exceeded", delta: ROUNDS_EXCEEDED[req.lang] });
    emit({ type: "text-end", id: "rounds-exceeded" });
    append({ role: "assistant", content: [{ type: "text", text: ROUNDS_EXCEEDED[req.lang] }] });
    return finish("rounds_exceeded", "other");
  } catch (error) {
    if (req.signal.aborted) {
      emit({ type: "abort", reason: "cancelled" });
      return { status: "cancelled", rounds, usage, modelId: active.id };
    }
    const failure: ModelFailure | undefined = error instanceof RoundFailure ? error.failure : undefined;
    const text = timeout.signal.aborted
      ? req.lang === "zh"
        ? `本轮超过 ${Math.round(limits.turnMs / 1000)} 秒上限，已停止。`
        : `The turn exceeded its ${Math.round(limits.turnMs / 1000)} s limit and was stopped.`
      : failure
        ? diagnose(failure, req.lang)
        : req.lang === "zh"
          ? "运行出错，本轮已停止。"
          : "The turn failed unexpectedly.";
    deps.log.error("turn_failed", {
      sessionId: req.sessionId,
      kind: failure?.kind,
      detail: failure?.detail,
      error: failure ? undefined : error,
    });
    emit({ type: "error", errorText: text });
    deps.trace?.({ type: "error", message: failure ? `${failure.kind}: ${failure.detail}` : text });
    return finish("error", "error", text);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }

  /** Compaction and view shaping before a model call (seed 000 §4). */
  async function prepareView(round: number): Promise<ModelMessage[]> {
    const window = inferContextWindow(active.id, limits.contextWindow);
    const outcome = await compactIfNeeded(transcript, {
      system: req.system,
      tools: schemas,
      window,
      lang: req.lang,
      summarize: deps.models.offline ? extractiveSummarizer : modelSummarizer(active.model, signal),
      beforeSummary: (head) =>
        deps.memoryFlush.flushBeforeCompaction({
          sessionId: req.sessionId,
          userId: req.userId,
          head: head.map(toFlushMessage),
        }),
    });
    if (outcome.kind === "compacted") {
      transcript = outcome.transcript;
      deps.onCompaction({ summary: outcome.transcript.summary ?? "", coveredCount: outcome.transcript.coveredCount });
      const { transcript: _, kind: __, ...figures } = outcome;
      emit({ type: "data-compaction", data: { round, window, ...figures } });
      deps.trace?.({ type: "compaction", round, detail: { window, ...figures } });
    } else if (outcome.kind === "failed") {
      if (signal.aborted) throw signal.reason;
      deps.log.warn("compaction_failed", { reason: outcome.reason });
      emit({
        type: "data-compaction",
        data: { round, window, failed: true, reason: outcome.reason, tokensBefore: outcome.tokensBefore },
      });
    }
    const base = viewOf(transcript, req.lang).map((m) =>
      m === turnQuestion && memoryBlock ? withMemories(m, memoryBlock) : m,
    );
    const view = round > 1 ? shrinkStaleResults(base, keysOf) : base;
    const budget = window - requestTokens(req.system, schemas, []) - OUTPUT_RESERVE_TOKENS;
    const fitted = fitToBudget(view, budget);
    if (fitted.cut > 0) emit({ type: "data-compaction", data: { round, window, truncatedMessages: fitted.cut } });
    return fitted.messages;
  }

  async function modelRound(round: number): Promise<RoundResult> {
    const messages = await prepareView(round);
    for (let attempt = 1; ; attempt++) {
      emit({ type: "data-model-start", data: { round, attempt, model: active.id } });
      try {
        return await streamRound({
          model: active.model,
          system: req.system,
          messages,
          tools: schemas,
          signal,
          idleMs: limits.chunkIdleMs,
          idPrefix: `r${round}a${attempt}-`,
          emit,
          log: deps.log,
        });
      } catch (error) {
        if (error instanceof RoundAborted || !(error instanceof RoundFailure)) throw error;
        const { failure, outputStarted } = error;
        if (outputStarted || !failure.retriable) throw error;
        const fallback = deps.models.fallback;
        if (fallback && active !== fallback) {
          emit({
            type: "data-retry",
            data: { round, reason: failure.kind, status: failure.status ?? null, from: active.id, to: fallback.id },
          });
          deps.log.warn("model_fallback", { from: active.id, to: fallback.id, kind: failure.kind });
          active = fallback;
          continue;
        }
        if (attempt > limits.maxModelRetries) throw error;
        const delay = Math.min(failure.retryAfterMs ?? 500 * 2 ** (attempt - 1), 10_000);
        emit({
          type: "data-retry",
          data: {
            round,
            reason: failure.kind,
            status: failure.status ?? null,
            from: active.id,
            to: active.id,
            delayMs: delay,
          },
        });
        await deps.sleep(delay, signal);
      }
    }
  }
}
