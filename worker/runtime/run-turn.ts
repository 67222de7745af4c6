/**
 * The agent loop: model → tools → observations → model, one `streamText` per round,
 * until the model answers without tools or MAX_TOOL_ROUNDS is reached. Provider failures before any
 * output switch to the fallback model or retry with backoff; cancel and the turn timeout stop it at
 * once. Pure application code over ports: it runs in plain Node with fakes.
 */
import type { ModelMessage, ToolSet, UIMessageChunk } from "ai";
import type { ToolDeps } from "../tools/deps";
import { diagnose, type Lang, type ModelFailure } from "./errors";
import type { NamedModel } from "./model";
import { RoundFailure, toolSchemas, type RoundResult, type RoundUsage } from "./stream-round";
import { executeCalls, type PendingCall, type ToolOutcome } from "./tool-executor";
import { callModel } from "./model-call";
import type { Transcript } from "./context/compaction";
import { prepareView } from "./context/prepare-view";
import { inferContextWindow } from "./context/model-metadata";
import { extractiveSummarizer, modelSummarizer } from "./context/summarize";
import { outputKeysOf } from "./output-keys";
import { createSubagentRunner } from "./subagents";
import { DEFAULT_LIMITS, type TurnDeps, type TurnLimits, type TurnRequest, type TurnResult } from "./turn-types";
import type { SeenCall } from "./guards/doom-loop";
import { screenDoomLoops } from "./guards/doom-loop-gate";
import {
  correctiveMessage,
  expectationFor,
  isPlanOnly,
  MAX_GUARD_RETRIES,
  unverifiedWarning,
} from "./guards/loop-guard";
import { lastUserText, recentTexts, toFlushMessage, toolResultMessage } from "./transcript";
import { traceOutcome } from "./trace";
import { startTurnBudget } from "./turn-budget";
import { addEntry, addUsage, costOf, ZERO_USAGE, type UsageEntry, type UsagePurpose } from "./usage";
import { dataPart, type FinishMetadata } from "../contracts/stream-parts";

const ROUNDS_EXCEEDED: Record<Lang, string> = {
  zh: "（Agent 工具调用轮次超限，已停止）",
  en: "(Tool-call rounds exceeded; the agent stopped.)",
};

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
  const budget = startTurnBudget(limits.turnMs, deps.now);
  const signal = AbortSignal.any([req.signal, budget.signal]);
  const gate = budget.pausing(deps.gate);
  const tools = new Map(deps.tools.map((t) => [t.spec.name, t]));
  const schemas: ToolSet = toolSchemas(deps.tools);
  let transcript: Transcript = {
    summary: req.summary?.text ?? null,
    coveredCount: req.summary?.coveredCount ?? 0,
    messages: [...req.history],
  };
  const keysOf = outputKeysOf(deps.tools);
  // Sub-agents run inside this turn; their rounds count against its budget.
  const toolDeps: ToolDeps = deps.nested
    ? { ...deps.toolDeps, subagents: undefined }
    : {
        ...deps.toolDeps,
        subagents: createSubagentRunner({
          runTurn,
          request: req,
          deps,
          active: () => active,
          emit: (chunk) => emit(chunk),
          spend: (n) => {
            rounds += n;
            return Math.max(0, limits.maxRounds - rounds);
          },
          remaining: () => Math.max(0, limits.maxRounds - rounds),
          // A delegation's rounds are this turn's spending: into its totals, tagged `subagent`.
          account: (nested) => {
            for (const e of nested.byPurpose ?? [
              { purpose: "turn", modelId: nested.modelId, calls: nested.rounds, usage: nested.usage },
            ])
              charge(e.purpose === "turn" ? "subagent" : e.purpose, e.modelId, e.usage, e.calls);
          },
        }),
      };
  let active: NamedModel = deps.models.primary;
  let usage: RoundUsage = ZERO_USAGE;
  let ledger: UsageEntry[] = [];
  /** Counts one model call's (or a nested run's) usage once, in the total and by purpose. */
  const charge = (purpose: UsagePurpose, modelId: string, u: RoundUsage, calls = 1) => {
    if (u.inputTokens === 0 && u.outputTokens === 0 && u.costUsd === 0) return;
    usage = addUsage(usage, u);
    ledger = addEntry(ledger, { purpose, modelId, calls, usage: u });
  };
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
  let lastView: { system: string; messages: ModelMessage[] } | undefined;
  const finish = (
    status: TurnResult["status"],
    finishReason: "stop" | "error" | "other",
    error?: string,
  ): TurnResult => {
    const metadata: FinishMetadata = {
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
    return {
      status,
      rounds,
      usage,
      modelId: active.id,
      byPurpose: ledger,
      ...(error !== undefined ? { error } : {}),
      ...(lastView ? { view: lastView } : {}),
    };
  };
  // Guards: the calls seen this turn (doom-loop window) and the tool the question requires.
  const seen: SeenCall[] = [];
  const called = new Set<string>();
  const userText = lastUserText(req.history);
  const expectation = req.resume
    ? undefined
    : expectationFor(userText, recentTexts(req.history), new Set(tools.keys()));
  let guardRetries = 0;

  const runTools = async (requested: PendingCall[], done: ToolOutcome[] = [], order?: string[]) => {
    for (const c of requested) called.add(c.toolName);
    const { run: calls, refused } = screenDoomLoops(requested, seen, emit);
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
        lang: req.lang,
        ...(deps.refuse ? { refuse: deps.refuse } : {}),
      },
      signal,
    );
    for (const o of [...fresh, ...refused]) deps.trace?.(traceOutcome(o, rounds));
    const all = [...done, ...fresh, ...refused];
    const sequence = order ?? requested.map((c) => c.toolCallId);
    all.sort((a, b) => sequence.indexOf(a.toolCallId) - sequence.indexOf(b.toolCallId));
    append(toolResultMessage(all));
  };

  // Recall: memories go around this turn's question in the view, never into storage.
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
      charge("turn", active.id, round.usage);
      emit(dataPart("data-usage", { round: rounds, ...round.usage, total: usage }));
      append(assistantMessage(round));
      if (round.calls.length === 0) {
        if (!expectation || called.has(expectation.tool)) return finish("done", "stop");
        if (guardRetries < MAX_GUARD_RETRIES) {
          guardRetries++;
          const planOnly = isPlanOnly(round.text);
          emit(
            dataPart("data-retry", {
              round: rounds,
              reason: "loop_guard",
              tool: expectation.tool,
              attempt: guardRetries,
              planOnly,
            }),
          );
          append({ role: "user", content: correctiveMessage(expectation, planOnly, req.lang) });
          continue;
        }
        const warning = unverifiedWarning(expectation, req.lang);
        emit(
          dataPart("data-guard", { kind: "loop_guard", tool: expectation.tool, placement: "prefix", text: warning }),
        );
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
      return {
        status: "cancelled",
        rounds,
        usage,
        modelId: active.id,
        byPurpose: ledger,
        ...(lastView ? { view: lastView } : {}),
      };
    }
    const failure: ModelFailure | undefined = error instanceof RoundFailure ? error.failure : undefined;
    const text = budget.signal.aborted
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
    budget.dispose();
  }

  async function modelRound(round: number): Promise<RoundResult> {
    const prepared = await prepareView({
      transcript,
      round,
      system: req.system,
      tools: schemas,
      window: inferContextWindow(active.id, limits.contextWindow),
      lang: req.lang,
      summarize: deps.models.offline
        ? extractiveSummarizer
        : modelSummarizer(active.model, signal, (u) => {
            const id = active.id;
            charge("summary", id, { ...u, costUsd: costOf(u, deps.priceOf?.(id)) });
          }),
      beforeSummary: (head) =>
        deps.memoryFlush.flushBeforeCompaction({
          sessionId: req.sessionId,
          userId: req.userId,
          head: head.map(toFlushMessage),
        }),
      memory: { question: turnQuestion, block: memoryBlock, context: req.context },
      keysOf,
      signal,
      emit,
      onCompaction: deps.onCompaction,
      trace: deps.trace,
      log: deps.log,
    });
    transcript = prepared.transcript;
    const messages = prepared.messages;
    lastView = { system: req.system, messages };
    const called = await callModel({
      models: deps.models,
      active,
      round,
      system: req.system,
      messages,
      tools: schemas,
      signal,
      idleMs: limits.chunkIdleMs,
      maxRetries: limits.maxModelRetries,
      emit,
      log: deps.log,
      sleep: deps.sleep,
    });
    active = called.active;
    return called.result;
  }
}
