/**
 * Runs one round's tool calls under the runtime's governance: consecutive concurrency-safe calls in
 * parallel batches (≤ 5), others one at a time in order; approvals for tools that require them;
 * input validated against the spec (failures become errors the model reads, never a crashed turn);
 * outputs capped in size. Every call gets exactly one result, so the transcript stays valid.
 */
import type { UIMessageChunk } from "ai";
import { excerpt } from "../lib/size-budget";
import type { Logger } from "../lib/log";
import type { BoundTool } from "../tools/bind";
import type { ToolContext, ToolDeps } from "../tools/deps";
import type { SpillStore } from "../ports/spill-store";
import { spillIfLarge, spillKey } from "./context/spill";
import { crashMessage, invokeTool } from "../tools/invoke-tool";

/** Most concurrency-safe calls run at once in one parallel batch. */
export const MAX_PARALLEL_TOOLS = 5;

/** A call the model made. `inputError` is set when its arguments were not valid JSON. */
export interface PendingCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  inputError?: string;
}

/** The user's answer to an approval request. */
export type ApprovalDecision =
  | { decision: "allow" | "always" }
  | { decision: "edit"; input: unknown }
  | { decision: "deny"; reason?: string };

/** How approvals reach the runtime (the session DO implements it over its SQLite). */
export interface ApprovalGate {
  /** True when the user chose "always" for this tool earlier in the session. */
  isAlwaysAllowed(toolName: string): boolean;
  /** The user's earlier answer for this call, when the turn resumes after an approval across eviction. */
  decided(toolCallId: string): { approvalId: string; decision: ApprovalDecision } | undefined;
  /** Records a pending approval and resolves with the user's decision. */
  request(call: {
    approvalId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
  }): Promise<ApprovalDecision>;
}

/** What one call produced, for the model's transcript. */
export type ToolOutcome = (
  | { toolCallId: string; toolName: string; kind: "ok"; output: unknown }
  | {
      toolCallId: string;
      toolName: string;
      kind: "error";
      code: string;
      message: string;
      /** The message in each UI language, when the tool's error carried them (`details.messages`). */
      messages?: { zh: string; en: string };
    }
  | { toolCallId: string; toolName: string; kind: "denied"; reason: string }
) & { /** Wall time of the call (ms), when it ran. */ ms?: number; /** The arguments it ran with. */ input?: unknown };

/** What the executor needs from the turn. */
export interface ExecutorEnv {
  tools: ReadonlyMap<string, BoundTool>;
  deps: ToolDeps;
  context: Omit<ToolContext, "toolCallId">;
  gate: ApprovalGate;
  emit(chunk: UIMessageChunk): void;
  newId(): string;
  log: Logger;
  /** Why a tool that exists but is not visible here is refused (sub-agents' narrowed tool sets). */
  refuse?: (toolName: string) => string | undefined;
  /** Where results over 50,000 characters go (keyed by `spillKey(sessionId, turnId, callId)`). */
  spill: { store: SpillStore | undefined; turnId: string };
  /** The user's language: an error whose details carry `messages: { zh, en }` is reported in it. */
  lang?: "zh" | "en";
}

/** The error's message in `lang` when its details carry one (`details.messages[lang]`). */
export function localizedMessage(
  error: { message: string; details?: Record<string, unknown> },
  lang: "zh" | "en" | undefined,
): string {
  const messages = error.details?.messages;
  if (!lang || typeof messages !== "object" || messages === null) return error.message;
  const m = (messages as Record<string, unknown>)[lang];
  return typeof m === "string" && m !== "" ? m : error.message;
}

/** `details.messages` when it holds both languages (bounded like every error message), else undefined. */
function bothMessages(details: Record<string, unknown> | undefined): { zh: string; en: string } | undefined {
  const m = details?.messages;
  if (typeof m !== "object" || m === null) return undefined;
  const { zh, en } = m as Record<string, unknown>;
  if (typeof zh !== "string" || typeof en !== "string") return undefined;
  return { zh: excerpt(zh, ERROR_MESSAGE_CHARS), en: excerpt(en, ERROR_MESSAGE_CHARS) };
}

/** Splits calls into batches: runs of concurrency-safe calls (≤ 5 each) and single unsafe calls, in order. */
export function partitionCalls<T>(calls: readonly T[], isSafe: (call: T) => boolean, max = MAX_PARALLEL_TOOLS): T[][] {
  const batches: T[][] = [];
  let safeRun: T[] | undefined;
  for (const call of calls) {
    if (isSafe(call)) {
      if (!safeRun || safeRun.length >= max) {
        safeRun = [];
        batches.push(safeRun);
      }
      safeRun.push(call);
    } else {
      safeRun = undefined;
      batches.push([call]);
    }
  }
  return batches;
}

/** Longest tool error message (characters) the model and the stream see. */
const ERROR_MESSAGE_CHARS = 2000;

/** Runs one call and emits its output part, with the run time in `toolMetadata.ms` (kept across reloads). */
async function runOne(call: PendingCall, env: ExecutorEnv, signal: AbortSignal): Promise<ToolOutcome> {
  const outcome = { ...(await runCall(call, env, signal)), input: call.input };
  // The UI shows an error in its own language when the tool said it in both (`toolMetadata.messages`).
  const toolMetadata = {
    ms: outcome.ms ?? 0,
    ...(outcome.kind === "error" && outcome.messages ? { messages: outcome.messages } : {}),
  };
  if (outcome.kind === "ok")
    env.emit({ type: "tool-output-available", toolCallId: call.toolCallId, output: outcome.output, toolMetadata });
  if (outcome.kind === "error")
    env.emit({
      type: "tool-output-error",
      toolCallId: call.toolCallId,
      errorText: `${outcome.code}: ${outcome.message}`,
      toolMetadata,
    });
  return outcome;
}

async function runCall(call: PendingCall, env: ExecutorEnv, signal: AbortSignal): Promise<ToolOutcome> {
  const { toolCallId, toolName } = call;
  let ms = 0;
  // Error text goes to the stream, the transcript and back to the model: always bounded.
  const fail = (code: string, message: string): ToolOutcome => ({
    toolCallId,
    toolName,
    kind: "error",
    code,
    message: excerpt(message, ERROR_MESSAGE_CHARS),
    ms,
  });
  const bound = env.tools.get(toolName);
  if (!bound) {
    const refusal = env.refuse?.(toolName);
    if (refusal) return fail("refused", refusal);
    return fail("not_found", `unknown tool ${toolName}; available: ${[...env.tools.keys()].join(", ")}`);
  }
  if (call.inputError !== undefined) return fail("invalid_input", `arguments are not valid JSON: ${call.inputError}`);

  let input: unknown = call.input;
  if (bound.spec.annotations.requiresApproval && !env.gate.isAlwaysAllowed(toolName)) {
    const prior = env.gate.decided(toolCallId);
    const approvalId = prior?.approvalId ?? env.newId();
    if (!prior) env.emit({ type: "tool-approval-request", approvalId, toolCallId });
    const answer = prior?.decision ?? (await env.gate.request({ approvalId, toolCallId, toolName, input }));
    env.emit({ type: "tool-approval-response", approvalId, approved: answer.decision !== "deny" });
    if (answer.decision === "deny") {
      env.emit({ type: "tool-output-denied", toolCallId });
      const reason = answer.reason ?? "the user denied this call";
      return { toolCallId, toolName, kind: "denied", reason };
    }
    if (answer.decision === "edit") {
      input = answer.input;
      env.emit({ type: "tool-input-available", toolCallId, toolName, input });
    }
  }

  const started = Date.now();
  const run = await invokeTool(bound, input, env.deps, { ...env.context, toolCallId, signal });
  if (run.kind === "invalid_input") {
    const failed = fail("invalid_input", env.lang === "zh" ? run.messages.zh : run.message);
    const messages = bothMessages({ messages: run.messages });
    return failed.kind === "error" && messages ? { ...failed, messages } : failed;
  }
  ms = Date.now() - started;
  if (run.kind === "crashed") {
    if (signal.aborted) throw run.error;
    env.log.error("tool_crashed", { tool: toolName, error: run.error });
    return fail("internal", crashMessage(toolName, run.error));
  }
  env.log.info("tool_end", { tool: toolName, ok: run.kind === "ok", ms });
  if (run.kind === "failed") {
    const failed = fail(run.error.code, localizedMessage(run.error, env.lang));
    const messages = bothMessages(run.error.details);
    return failed.kind === "error" && messages ? { ...failed, messages } : failed;
  }
  try {
    // A result JSON cannot encode (or a failing spill store) is the tool's failure, not the turn's.
    const output = await spillIfLarge(
      run.value,
      spillKey(env.context.sessionId, env.spill.turnId, toolCallId),
      env.spill.store,
    );
    return { toolCallId, toolName, kind: "ok", output, ms };
  } catch (error) {
    if (signal.aborted) throw error;
    env.log.error("tool_crashed", { tool: toolName, error });
    return fail("internal", crashMessage(toolName, error));
  }
}

/** Runs the calls in batches; stops early (throwing the abort reason) when `signal` fires. */
export async function executeCalls(
  calls: readonly PendingCall[],
  env: ExecutorEnv,
  signal: AbortSignal,
): Promise<ToolOutcome[]> {
  const isSafe = (c: PendingCall) => {
    const annotations = env.tools.get(c.toolName)?.spec.annotations;
    return Boolean(annotations?.concurrencySafe && !annotations.requiresApproval);
  };
  const outcomes: ToolOutcome[] = [];
  for (const batch of partitionCalls(calls, isSafe)) {
    signal.throwIfAborted();
    const abort = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    abort.catch(() => {});
    outcomes.push(...(await Promise.race([Promise.all(batch.map((c) => runOne(c, env, signal))), abort])));
  }
  return outcomes;
}
