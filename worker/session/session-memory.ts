/**
 * Long-term memory for the session DO (wiring only): the recall and flush adapters over D1, and the
 * learning step run under `waitUntil` after a turn's answer is stored — keyword rules every turn,
 * and, with a model configured, the model's L1 pass and L2/L3 refresh every MODEL_PASS_EVERY_TURNS
 * turns that used tools (seed trigger: ≥ 4 messages and ≥ 1 tool call).
 */
import { desc, eq, sql } from "drizzle-orm";
import { RowChunks } from "./row-chunks";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type { Config } from "../config";
import type { StoredUIMessage } from "../contracts/api";
import type { Logger } from "../lib/log";
import type { MemoryFlush } from "../ports/memory-flush";
import type { MemoryRecall } from "../ports/memory-recall";
import { createMemoryFlush } from "../runtime/memory/flush-memories";
import { L1_WINDOW, modelMemoryPass, type PassMessage } from "../runtime/memory/model-memory-pass";
import { createMemoryRecall } from "../runtime/memory/recall-memories";
import { rememberTurn } from "../runtime/memory/remember-turn";
import { createModels } from "../runtime/model";
import { addEntry, costOf, type UsageEntry } from "../runtime/usage";
import { createDb } from "../storage/db";
import { effectiveModels } from "./user-models";
import { memoryStoreOf } from "../storage/memory-repo";
import { D1UsageRepo } from "../storage/usage-repo";
import * as schema from "./schema";

/** The model pass runs on every Nth user turn of a session (and only when the window used tools). */
export const MODEL_PASS_EVERY_TURNS = 10;

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

/** The runtime's memory ports for one turn. */
export function memoryPorts(
  d1: D1Database,
  log: Logger,
  defer: (work: Promise<unknown>) => void,
): { memory: MemoryRecall; memoryFlush: MemoryFlush } {
  const store = memoryStoreOf(d1);
  return {
    memory: createMemoryRecall({ store, now: Date.now, log, defer }),
    memoryFlush: createMemoryFlush({ store, now: Date.now, log }),
  };
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

/** What a finished turn hands to the learning step. */
export interface LearnInput {
  d1: D1Database;
  sessionDb: SessionDb;
  config: Config;
  log: Logger;
  ownerId: string;
  sessionId: string;
  userMessageId: string;
  assistant: StoredUIMessage | undefined;
  /** Only a finished answer teaches lessons (not an error or a cancelled turn). */
  answered: boolean;
  /** The memory pass's model usage, for the session's totals (D1 is written here). */
  onUsage?: (entries: readonly UsageEntry[]) => void;
}

/** Learns from a finished turn; failures are logged as errors (this runs after the answer). */
export async function learnFromTurn(input: LearnInput): Promise<void> {
  const log = input.log.child({ sessionId: input.sessionId });
  try {
    const user = input.sessionDb
      .select()
      .from(schema.messages)
      .where(eq(schema.messages.id, input.userMessageId))
      .get();
    const metadata = (user?.metadata ?? null) as Record<string, unknown> | null;
    if (!user || metadata?.kind === "notification") return;
    const store = memoryStoreOf(input.d1);
    const assistantText = input.answered && input.assistant ? textOf(input.assistant.parts) : "";
    await rememberTurn(
      { store, now: Date.now, log },
      {
        ownerId: input.ownerId,
        sessionId: input.sessionId,
        user: { id: user.id, text: textOf(user.parts as Record<string, unknown>[]) },
        assistant: input.assistant && assistantText ? { id: input.assistant.id, text: assistantText } : undefined,
      },
    );
    // The owner's own model (Settings → Model) or the default; none usable → no model pass.
    const endpoints = await effectiveModels(input.d1, input.config, input.ownerId);
    if (!endpoints.model) return;
    const userTurns =
      input.sessionDb
        .select({ n: sql<number>`count(*)` })
        .from(schema.messages)
        .where(eq(schema.messages.role, "user"))
        .get()?.n ?? 0;
    if (userTurns === 0 || userTurns % MODEL_PASS_EVERY_TURNS !== 0) return;
    const rows = input.sessionDb
      .select()
      .from(schema.messages)
      .orderBy(desc(schema.messages.seq))
      .limit(L1_WINDOW)
      .all()
      .reverse();
    const partsOf = (p: unknown) => new RowChunks(input.sessionDb).restoreParsed(p) as Record<string, unknown>[];
    if (rows.length < 4 || !rows.some((r) => usedTools(partsOf(r.parts)))) return;
    const messages: PassMessage[] = rows.map((r) => ({
      id: r.id,
      role: r.role,
      text: textOf(partsOf(r.parts)),
    }));
    const primary = createModels(endpoints.model, endpoints.fallbackModel).primary;
    let ledger: UsageEntry[] = [];
    const price = input.config.prices[primary.id] ?? input.config.prices["*"];
    try {
      await modelMemoryPass(
        {
          store,
          model: primary.model,
          now: Date.now,
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
      await new D1UsageRepo(createDb(input.d1)).addEntries(input.ownerId, Date.now(), ledger, log);
      input.onUsage?.(ledger);
    }
  } catch (error) {
    log.error("memory_learning_failed", { error });
  }
}
