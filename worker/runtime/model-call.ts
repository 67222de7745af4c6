/**
 * One model call with its failure policy: a retriable failure before any output
 * switches to the fallback model for the rest of the turn, or — without one — retries the same model
 * with backoff (honouring retry-after); configuration errors and failures after output are thrown.
 */
import type { ModelMessage, ToolSet, UIMessageChunk } from "ai";
import type { Logger } from "../lib/log";
import type { ModelChain, NamedModel } from "./model";
import { RoundAborted, RoundFailure, streamRound, type RoundResult } from "./stream-round";
import { dataPart } from "../contracts/stream-parts";

/** Inputs of a model call. */
export interface ModelCallInput {
  models: ModelChain;
  active: NamedModel;
  round: number;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  idleMs: number;
  maxRetries: number;
  emit: (chunk: UIMessageChunk) => void;
  log: Logger;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The round's result and the model that produced it (the fallback, once switched to). */
export async function callModel(o: ModelCallInput): Promise<{ result: RoundResult; active: NamedModel }> {
  let active = o.active;
  for (let attempt = 1; ; attempt++) {
    o.emit(dataPart("data-model-start", { round: o.round, attempt, model: active.id }));
    try {
      const result = await streamRound({
        model: active.model,
        provider: active.provider,
        system: o.system,
        messages: o.messages,
        tools: o.tools,
        signal: o.signal,
        idleMs: o.idleMs,
        idPrefix: `r${o.round}a${attempt}-`,
        emit: o.emit,
        log: o.log,
      });
      return { result, active };
    } catch (error) {
      if (error instanceof RoundAborted || !(error instanceof RoundFailure)) throw error;
      const { failure, outputStarted } = error;
      if (outputStarted || !failure.retriable) throw error;
      const base = { round: o.round, reason: failure.kind, status: failure.status ?? null, from: active.id };
      const fallback = o.models.fallback;
      if (fallback && active !== fallback) {
        o.emit(dataPart("data-retry", { ...base, to: fallback.id }));
        o.log.warn("model_fallback", { from: active.id, to: fallback.id, kind: failure.kind });
        active = fallback;
        continue;
      }
      if (attempt > o.maxRetries) throw error;
      const delay = Math.min(failure.retryAfterMs ?? 500 * 2 ** (attempt - 1), 10_000);
      o.emit(dataPart("data-retry", { ...base, to: active.id, delayMs: delay }));
      await o.sleep(delay, o.signal);
    }
  }
}
