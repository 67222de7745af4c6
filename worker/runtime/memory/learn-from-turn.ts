/**
 * The learning step after a finished turn (application ring; the session DO runs it under
 * `waitUntil`, off the answer's path): keyword rules every turn, and — with a usable model — the
 * model's L1 pass and L2/L3 refresh on every MODEL_PASS_EVERY_TURNS-th user turn of the session,
 * only when its last L1_WINDOW messages hold at least 4 messages and used a tool. The session's
 * messages come through `SessionMessages`; the pass's tokens count as purpose `memory`.
 */
import type { StoredUIMessage } from "../../contracts/api";
import type { Logger } from "../../lib/log";
import type { Clock } from "../../ports/clock";
import type { MemoryStore } from "../../ports/memory-store";
import { createModels, type ModelEndpointSettings } from "../model";
import { addEntry, costOf, type ModelPrice, type UsageEntry } from "../usage";
import { L1_WINDOW, modelMemoryPass, type PassMessage } from "./model-memory-pass";
import { rememberTurn } from "./remember-turn";

/** The model pass runs on every Nth user turn of a session (and only when the window used tools). */
export const MODEL_PASS_EVERY_TURNS = 10;
/** Fewest messages in the window for a model pass. */
export const MODEL_PASS_MIN_MESSAGES = 4;

/** A stored message as the learning step reads it. */
export interface LearnMessage {
  id: string;
  role: "user" | "assistant" | "system";
  parts: readonly Record<string, unknown>[];
  /** The message's metadata (a notification turn's user message has `kind: "notification"`). */
  metadata: Record<string, unknown> | null;
}

/** The session's messages (the DO's SQLite). */
export interface SessionMessages {
  message(id: string): LearnMessage | undefined;
  /** How many user messages the session holds. */
  userTurns(): number;
  /** The last `n` messages, oldest first. */
  last(n: number): LearnMessage[];
}

/** What the learning step needs. */
export interface LearnDeps {
  store: MemoryStore;
  messages: SessionMessages;
  /** The owner's model endpoints (their own or the default); no model → no model pass. */
  modelsFor(
    ownerId: string,
  ): Promise<{ model: ModelEndpointSettings | undefined; fallbackModel: ModelEndpointSettings | undefined }>;
  prices: Readonly<Record<string, ModelPrice>>;
  /** Adds the pass's usage to the owner's totals (also when the pass fails after spending). */
  addUsage(ownerId: string, now: number, entries: readonly UsageEntry[]): Promise<void>;
  now: Clock;
  log: Logger;
}

/** What a finished turn hands to the learning step. */
export interface LearnInput {
  ownerId: string;
  sessionId: string;
  userMessageId: string;
  assistant: StoredUIMessage | undefined;
  /** Only a finished answer teaches lessons (not an error or a cancelled turn). */
  answered: boolean;
  /** The memory pass's model usage, for the session's totals. */
  onUsage?: (entries: readonly UsageEntry[]) => void;
}

function textOf(parts: readonly Record<string, unknown>[]): string {
  return parts
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n");
}

function usedTools(parts: readonly Record<string, unknown>[]): boolean {
  return parts.some((p) => typeof p.type === "string" && (p.type.startsWith("tool-") || p.type === "dynamic-tool"));
}

/** Learns from a finished turn; failures are logged as errors (this runs after the answer). */
export async function learnFromTurn(d: LearnDeps, input: LearnInput): Promise<void> {
  const log = d.log.child({ sessionId: input.sessionId });
  try {
    const user = d.messages.message(input.userMessageId);
    if (!user || user.metadata?.kind === "notification") return;
    const assistantText = input.answered && input.assistant ? textOf(input.assistant.parts) : "";
    await rememberTurn(
      { store: d.store, now: d.now, log },
      {
        ownerId: input.ownerId,
        sessionId: input.sessionId,
        user: { id: user.id, text: textOf(user.parts) },
        assistant: input.assistant && assistantText ? { id: input.assistant.id, text: assistantText } : undefined,
      },
    );
    const endpoints = await d.modelsFor(input.ownerId);
    if (!endpoints.model) return;
    const userTurns = d.messages.userTurns();
    if (userTurns === 0 || userTurns % MODEL_PASS_EVERY_TURNS !== 0) return;
    const rows = d.messages.last(L1_WINDOW);
    if (rows.length < MODEL_PASS_MIN_MESSAGES || !rows.some((r) => usedTools(r.parts))) return;
    const messages: PassMessage[] = rows.map((r) => ({ id: r.id, role: r.role, text: textOf(r.parts) }));
    const primary = createModels(endpoints.model, endpoints.fallbackModel).primary;
    let ledger: UsageEntry[] = [];
    const price = d.prices[primary.id] ?? d.prices["*"];
    try {
      await modelMemoryPass(
        {
          store: d.store,
          model: primary.model,
          now: d.now,
          log,
          onUsage: (u) =>
            (ledger = addEntry(ledger, {
              purpose: "memory",
              modelId: primary.id,
              calls: 1,
              usage: { ...u, costUsd: costOf(u, price) },
            })),
        },
        { ownerId: input.ownerId, sessionId: input.sessionId, messages },
      );
    } finally {
      // Spent tokens count even when the pass fails afterwards (purpose `memory`).
      await d.addUsage(input.ownerId, d.now(), ledger);
      input.onUsage?.(ledger);
    }
  } catch (error) {
    log.error("memory_learning_failed", { error });
  }
}
