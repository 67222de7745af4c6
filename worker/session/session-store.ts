/**
 * SessionStore: reads and writes the session DO's SQLite through drizzle (synchronous: DO SQLite
 * runs in-process). Returns contract shapes, never drizzle rows.
 */
import { asc } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type { SessionDetail, StoredUIMessage } from "../contracts/api";
import * as schema from "./schema";

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

/** The session DO's storage. */
export class SessionStore {
  constructor(private readonly db: SessionDb) {}

  /** Writes the session record once; a second call for an existing session is a no-op. */
  init(init: { id: string; ownerId: string; title: string; profile: string | null; now: number }): void {
    this.db
      .insert(schema.sessionMeta)
      .values({ id: init.id, ownerId: init.ownerId, title: init.title, profile: init.profile, createdAt: init.now })
      .onConflictDoNothing()
      .run();
  }

  /** The whole session for `GET /api/sessions/:id`; null if never created. */
  snapshot(): SessionDetail | null {
    const meta = this.db.select().from(schema.sessionMeta).limit(1).get();
    if (!meta) return null;
    const rows = this.db.select().from(schema.messages).orderBy(asc(schema.messages.seq)).all();
    const messages: StoredUIMessage[] = rows.map((r) => ({
      id: r.id,
      role: r.role,
      parts: r.parts as StoredUIMessage["parts"],
      ...(r.metadata ? { metadata: r.metadata as NonNullable<StoredUIMessage["metadata"]> } : {}),
    }));
    return {
      id: meta.id,
      title: meta.title,
      profile: meta.profile,
      createdAt: new Date(meta.createdAt).toISOString(),
      messages,
      compaction: {
        summary: meta.compactionSummary,
        compactedThrough: meta.compactedThrough,
        count: meta.compactionCount,
      },
      usage: {
        inputTokens: meta.inputTokens,
        outputTokens: meta.outputTokens,
        reasoningTokens: meta.reasoningTokens,
        cachedInputTokens: meta.cachedInputTokens,
      },
    };
  }
}
