/**
 * SessionStore: reads and writes the session DO's SQLite through drizzle (synchronous: DO SQLite
 * runs in-process). Returns contract shapes, never drizzle rows.
 */
import { asc, desc, eq, lt, sql } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type { SessionDetail, StoredUIMessage } from "../contracts/api";
import { RowChunks } from "./row-chunks";
import type { AuditHead } from "../contracts/audit";
import * as schema from "./schema";

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

/** Which messages a paged read returns: the latest `limit` with `seq < before` (all when no cursor). */
export interface MessagePage {
  limit: number;
  before?: number;
}

/** The session DO's storage. */
export class SessionStore {
  private readonly chunks: RowChunks;

  constructor(private readonly db: SessionDb) {
    this.chunks = new RowChunks(db);
  }

  /** Writes the session record once; a second call for an existing session is a no-op. */
  init(init: { id: string; ownerId: string; title: string; profile: string | null; now: number }): void {
    this.db
      .insert(schema.sessionMeta)
      .values({ id: init.id, ownerId: init.ownerId, title: init.title, profile: init.profile, createdAt: init.now })
      .onConflictDoNothing()
      .run();
  }

  /** Marks the session deleted (kept until its storage is erased): it takes no turn from then on. */
  markDeleted(now: number): void {
    this.db.update(schema.sessionMeta).set({ deletedAt: now }).run();
  }

  /** The session record, if created. */
  meta(): typeof schema.sessionMeta.$inferSelect | undefined {
    return this.db.select().from(schema.sessionMeta).limit(1).get();
  }

  /** Appends a UI message (user, or a finished assistant message). */
  appendMessage(message: StoredUIMessage, now: number): void {
    // A message over the row budget (a 3 MB answer) is split across row_chunks rows.
    const json = JSON.stringify(message.parts);
    const fitted = this.chunks.fit(`msg:${message.id}`, json);
    this.db
      .insert(schema.messages)
      .values({
        id: message.id,
        role: message.role,
        parts: fitted === json ? message.parts : (JSON.parse(fitted) as unknown),
        metadata: message.metadata ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .run();
  }

  /** Switches the session's profile. */
  setProfile(profile: string | null): void {
    this.db.update(schema.sessionMeta).set({ profile }).run();
  }

  /** Renames the session. */
  setTitle(title: string): void {
    this.db.update(schema.sessionMeta).set({ title }).run();
  }

  /** Records a compaction: the first `coveredCount` model messages are now `summary`. */
  setCompaction(summary: string, coveredCount: number): void {
    const m = schema.sessionMeta;
    this.db
      .update(m)
      .set({
        compactionSummary: summary,
        compactedThrough: coveredCount,
        compactionCount: sql`${m.compactionCount} + 1`,
      })
      .run();
  }

  /** Adds a turn's token usage to the session totals. */
  addUsage(u: {
    inputTokens: number;
    outputTokens: number;
    reasoningTokens: number;
    cachedInputTokens: number;
    cacheWriteTokens: number;
    costUsd: number;
  }): void {
    const m = schema.sessionMeta;
    this.db
      .update(m)
      .set({
        inputTokens: sql`${m.inputTokens} + ${u.inputTokens}`,
        outputTokens: sql`${m.outputTokens} + ${u.outputTokens}`,
        reasoningTokens: sql`${m.reasoningTokens} + ${u.reasoningTokens}`,
        cachedInputTokens: sql`${m.cachedInputTokens} + ${u.cachedInputTokens}`,
        cacheWriteTokens: sql`${m.cacheWriteTokens} + ${u.cacheWriteTokens}`,
        costMicros: sql`${m.costMicros} + ${Math.round(u.costUsd * 1_000_000)}`,
      })
      .run();
  }

  /** Number of stored UI messages. */
  messageCount(): number {
    return (
      this.db
        .select({ n: sql<number>`count(*)` })
        .from(schema.messages)
        .get()?.n ?? 0
    );
  }

  /** True when a message with this id exists. */
  hasMessage(id: string): boolean {
    return (
      this.db.select({ id: schema.messages.id }).from(schema.messages).where(eq(schema.messages.id, id)).get() !==
      undefined
    );
  }

  /**
   * The whole session for `GET /api/sessions/:id` as JSON text, or null if never created. Message
   * rows are spliced in as stored (already JSON) instead of parsed and re-serialised: a session
   * with 10,000 messages loads in one pass. `extra` is appended (an open turn's folded message).
   */
  snapshotJson(extra?: StoredUIMessage, audit?: AuditHead | null, page?: MessagePage): string | null {
    const meta = this.meta();
    if (!meta) return null;
    const columns = {
      seq: schema.messages.seq,
      id: schema.messages.id,
      role: schema.messages.role,
      parts: sql<string>`messages.parts`,
      metadata: sql<string | null>`messages.metadata`,
    };
    // A page: the latest `limit` messages before the cursor, read newest first over the primary key.
    const rows = page
      ? this.db
          .select(columns)
          .from(schema.messages)
          .where(page.before !== undefined ? lt(schema.messages.seq, page.before) : undefined)
          .orderBy(desc(schema.messages.seq))
          .limit(page.limit + 1)
          .all()
          .reverse()
      : this.db.select(columns).from(schema.messages).orderBy(asc(schema.messages.seq)).all();
    const hasOlder = page !== undefined && rows.length > page.limit;
    if (hasOlder) rows.shift();
    if (page?.before !== undefined) extra = undefined; // an open turn's message belongs to the newest page

    const messages = rows.map(
      (r) =>
        `{"id":${JSON.stringify(r.id)},"role":${JSON.stringify(r.role)},"parts":${this.chunks.restore(r.parts)}${r.metadata ? `,"metadata":${r.metadata}` : ""}}`,
    );
    if (extra) messages.push(JSON.stringify(extra));
    const head: Omit<SessionDetail, "messages"> = {
      id: meta.id,
      title: meta.title,
      profile: meta.profile,
      createdAt: new Date(meta.createdAt).toISOString(),
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
        cacheWriteTokens: meta.cacheWriteTokens,
        costUsd: meta.costMicros / 1_000_000,
      },
      audit: audit ?? null,
      ...(page ? { page: { limit: page.limit, older: hasOlder ? String(rows[0]?.seq ?? "") : null } } : {}),
    };
    return `${JSON.stringify(head).slice(0, -1)},"messages":[${messages.join(",")}]}`;
  }
}
