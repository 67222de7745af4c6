/**
 * Long-term memory for the session DO (wiring only, edge): the recall and flush adapters over D1 for
 * each turn, and the learning step of runtime/memory/learn-from-turn.ts wired to the session's
 * SQLite messages, the owner's models and the D1 usage totals.
 */
import { desc, eq, sql } from "drizzle-orm";
import { RowChunks } from "./row-chunks";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type { Config } from "../config";
import type { Logger } from "../lib/log";
import type { MemoryFlush } from "../ports/memory-flush";
import type { MemoryRecall } from "../ports/memory-recall";
import { createMemoryFlush } from "../runtime/memory/flush-memories";
import {
  learnFromTurn as learn,
  type LearnInput as TurnToLearn,
  type LearnMessage,
  type SessionMessages,
} from "../runtime/memory/learn-from-turn";
import { createMemoryRecall } from "../runtime/memory/recall-memories";
import { d1Client } from "./d1-client";
import { effectiveModels } from "./user-models";
import { memoryStoreOf } from "../storage/memory-repo";
import { D1UsageRepo } from "../storage/usage-repo";
import * as schema from "./schema";

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

/**
 * The runtime's memory ports for one turn (`recallD1`: the database the recall reads through). With
 * `touchWhen`, the recall's `last_hit_at` write waits for it and is dropped when it says false — a
 * recall started before the turn is known to open (the rate limit's answer) writes nothing for a
 * refused turn.
 */
export function memoryPorts(
  d1: D1Database,
  log: Logger,
  defer: (work: Promise<unknown>) => void,
  recallD1: D1Database = d1,
  touchWhen?: Promise<boolean>,
): { memory: MemoryRecall; memoryFlush: MemoryFlush } {
  const store = memoryStoreOf(d1);
  const recallStore = recallD1 === d1 ? store : memoryStoreOf(recallD1);
  if (touchWhen) {
    const touch = recallStore.touch.bind(recallStore);
    recallStore.touch = async (ownerId, ids, now) => {
      if (await touchWhen) await touch(ownerId, ids, now);
    };
  }
  return {
    memory: createMemoryRecall({ store: recallStore, now: Date.now, log, defer }),
    memoryFlush: createMemoryFlush({ store, now: Date.now, log }),
  };
}

/** The session's messages for the learning step (window rows restored from their row chunks). */
function sessionMessages(db: SessionDb): SessionMessages {
  const toLearn = (r: typeof schema.messages.$inferSelect, parts: unknown): LearnMessage => ({
    id: r.id,
    role: r.role,
    parts: parts as Record<string, unknown>[],
    metadata: (r.metadata ?? null) as Record<string, unknown> | null,
  });
  return {
    message(id) {
      const row = db.select().from(schema.messages).where(eq(schema.messages.id, id)).get();
      return row ? toLearn(row, row.parts) : undefined;
    },
    userTurns() {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(schema.messages)
          .where(eq(schema.messages.role, "user"))
          .get()?.n ?? 0
      );
    },
    last(n) {
      const rows = db.select().from(schema.messages).orderBy(desc(schema.messages.seq)).limit(n).all().reverse();
      const chunks = new RowChunks(db);
      return rows.map((r) => toLearn(r, chunks.restoreParsed(r.parts)));
    },
  };
}

/** What a finished turn hands to the learning step, with the DO's handles. */
export interface LearnInput extends TurnToLearn {
  d1: D1Database;
  sessionDb: SessionDb;
  config: Config;
  log: Logger;
}

/** Learns from a finished turn (see runtime/memory/learn-from-turn.ts); failures are logged, never thrown. */
export async function learnFromTurn(input: LearnInput): Promise<void> {
  const { d1, sessionDb, config, log, ...turn } = input;
  await learn(
    {
      store: memoryStoreOf(d1),
      messages: sessionMessages(sessionDb),
      // The owner's own model (Settings → Model) or the default; none usable → no model pass.
      modelsFor: (ownerId) => effectiveModels(d1, config, ownerId),
      prices: config.prices,
      addUsage: (ownerId, now, entries) => new D1UsageRepo(d1Client(d1)).addEntries(ownerId, now, entries, log),
      now: Date.now,
      log,
    },
    turn,
  );
}
