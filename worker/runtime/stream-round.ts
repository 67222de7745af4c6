/**
 * One model round: a single `streamText` call with tool schemas but no `execute`, its parts mapped
 * to UI message stream chunks as they arrive, with an idle watchdog (no chunk for N ms → abort).
 * Returns what the round produced, or throws a RoundFailure that says whether output had started.
 */
import { dataPart } from "../contracts/stream-parts";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { jsonSchema, streamText, tool, type ModelMessage, type ToolSet, type UIMessageChunk } from "ai";
import { z } from "zod";
import type { Logger } from "../lib/log";
import { excerpt } from "../lib/size-budget";
import type { BoundTool } from "../tools/bind";
import { classifyModelError, IdleTimeoutError, type ModelFailure } from "./errors";
import type { PendingCall } from "./tool-executor";

/** Token usage of a round (zeros when the provider did not say). */
export interface RoundUsage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInputTokens: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens: number;
  /** Cost in USD from the configured prices (0 when none are set). */
  costUsd: number;
}

/** What a finished round produced. */
export interface RoundResult {
  text: string;
  reasoning: string;
  calls: PendingCall[];
  usage: RoundUsage;
  finishReason: string;
  warnings: string[];
}

/** A round that failed; `outputStarted` decides whether a retry or the fallback is allowed. */
export class RoundFailure extends Error {
  constructor(
    readonly failure: ModelFailure,
    readonly outputStarted: boolean,
  ) {
    super(failure.detail);
    this.name = "RoundFailure";
  }
}

/** Thrown when the turn's own signal (cancel or turn timeout) stopped the round. */
export class RoundAborted extends Error {
  constructor(readonly reason: unknown) {
    super("round aborted");
    this.name = "RoundAborted";
  }
}

/** The raw text a parse error carries (the AI SDK's JSONParseError keeps it as `text`), else its message. */
function rawTextOf(error: unknown): string {
  if (error && typeof error === "object" && "text" in error && typeof error.text === "string") return error.text;
  return error instanceof Error ? error.message : String(error);
}

const schemaCache = new WeakMap<readonly BoundTool[], ToolSet>();

/**
 * Tool schemas for the model: JSON Schema from each spec, no `execute` (the runtime runs tools).
 * Converted once per tool list (the registry is static), not on every turn.
 */
export function toolSchemas(tools: readonly BoundTool[]): ToolSet {
  const cached = schemaCache.get(tools);
  if (cached) return cached;
  const set: ToolSet = {};
  for (const t of tools) {
    set[t.spec.name] = tool({
      title: t.spec.title.en,
      description: t.spec.description,
      inputSchema: jsonSchema(z.toJSONSchema(t.spec.input, { io: "input" }) as Parameters<typeof jsonSchema>[0]),
    });
  }
  schemaCache.set(tools, set);
  return set;
}

/** Options of one round. */
export interface RoundOptions {
  model: LanguageModelV4;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  idleMs: number;
  /** Prefix for text/reasoning part ids so parts of different rounds never collide. */
  idPrefix: string;
  emit(chunk: UIMessageChunk): void;
  log: Logger;
}

function toUsage(u: {
  inputTokens?: number;
  outputTokens?: number;
  outputTokenDetails?: { reasoningTokens?: number };
  inputTokenDetails?: { cacheReadTokens?: number; cacheWriteTokens?: number };
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

/** Streams one round. */
export async function streamRound(o: RoundOptions): Promise<RoundResult> {
  const idle = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new IdleTimeoutError(o.idleMs)), o.idleMs);
  };
  const signal = AbortSignal.any([o.signal, idle.signal]);
  let started = false;
  const begin = () => {
    if (!started) o.emit({ type: "start-step" });
    started = true;
  };
  const out: RoundResult = {
    text: "",
    reasoning: "",
    calls: [],
    usage: toUsage({}),
    finishReason: "unknown",
    warnings: [],
  };
  const fail = (error: unknown): never => {
    if (o.signal.aborted) throw new RoundAborted(o.signal.reason);
    throw new RoundFailure(classifyModelError(idle.signal.aborted ? idle.signal.reason : error), started);
  };

  arm();
  try {
    const result = streamText({
      model: o.model,
      system: o.system,
      messages: o.messages,
      tools: o.tools,
      abortSignal: signal,
      maxRetries: 0,
    });
    for await (const part of result.fullStream) {
      arm();
      switch (part.type) {
        case "text-start":
        case "text-end":
        case "reasoning-start":
        case "reasoning-end":
          begin();
          o.emit({ type: part.type, id: o.idPrefix + part.id });
          break;
        case "text-delta":
          begin();
          out.text += part.text;
          o.emit({ type: "text-delta", id: o.idPrefix + part.id, delta: part.text });
          break;
        case "reasoning-delta":
          begin();
          out.reasoning += part.text;
          o.emit({ type: "reasoning-delta", id: o.idPrefix + part.id, delta: part.text });
          break;
        case "tool-input-start":
          begin();
          o.emit({ type: "tool-input-start", toolCallId: part.id, toolName: part.toolName });
          break;
        case "tool-input-delta":
          o.emit({ type: "tool-input-delta", toolCallId: part.id, inputTextDelta: part.delta });
          break;
        case "tool-call": {
          begin();
          const invalid = "invalid" in part && part.invalid === true;
          // The SDK's parse error repeats the whole raw argument text: quote a bounded excerpt only.
          const inputError = invalid
            ? excerpt(
                String(
                  ("error" in part && part.error instanceof Error ? part.error.message : undefined) ??
                    "unparsable arguments",
                ),
              )
            : undefined;
          // Unparsable arguments are kept as an excerpt (the call fails anyway); valid ones whole.
          const input = invalid && typeof part.input === "string" ? excerpt(part.input, 2000) : part.input;
          out.calls.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input,
            ...(inputError ? { inputError } : {}),
          });
          o.emit({ type: "tool-input-available", toolCallId: part.toolCallId, toolName: part.toolName, input });
          break;
        }
        case "finish-step":
          out.usage = toUsage(part.usage);
          out.finishReason = part.finishReason;
          break;
        case "error": {
          const failure = classifyModelError(part.error);
          if (failure.kind === "malformed_stream") {
            out.warnings.push(failure.detail);
            o.log.warn("model_stream_malformed_chunk", { detail: excerpt(failure.detail, 500) });
            // Visible, not silent: what the model sent in that chunk is lost, and the reader is told.
            o.emit(
              dataPart("data-warning", {
                kind: "malformed_chunk",
                message:
                  "A chunk of the model's answer could not be read and was skipped; the answer may be incomplete.",
                excerpt: excerpt(rawTextOf(part.error), 200),
              }),
            );
            break;
          }
          fail(part.error);
          break;
        }
        case "abort":
          fail(new Error("aborted"));
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (error instanceof RoundFailure || error instanceof RoundAborted) throw error;
    fail(error);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (started) o.emit({ type: "finish-step" });
  return out;
}
