/**
 * D1SessionIndex: which sessions exist and who owns them. Listing and ownership checks read D1;
 * each session's content lives in its Durable Object.
 */
import { and, desc, eq } from "drizzle-orm";
import type { SessionSummary } from "../contracts/api";
import type { Db } from "./db";
import { sessions } from "./schema";

type Row = typeof sessions.$inferSelect;

function toSummary(row: Row): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    profile: row.profile,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** The session index in D1. */
export class D1SessionIndex {
  constructor(private readonly db: Db) {}

  /** Records a new session. */
  async insert(entry: {
    id: string;
    ownerId: string;
    title: string;
    profile: string | null;
    now: number;
  }): Promise<void> {
    await this.db.insert(sessions).values({
      id: entry.id,
      ownerId: entry.ownerId,
      title: entry.title,
      profile: entry.profile,
      createdAt: entry.now,
      updatedAt: entry.now,
    });
  }

  /** The owner's session, or null when it does not exist or belongs to someone else. */
  async get(ownerId: string, id: string): Promise<SessionSummary | null> {
    const row = await this.db.query.sessions.findFirst({
      where: and(eq(sessions.id, id), eq(sessions.ownerId, ownerId)),
    });
    return row ? toSummary(row) : null;
  }

  /** The owner's sessions, most recently active first. */
  async list(ownerId: string, limit = 200): Promise<SessionSummary[]> {
    const rows = await this.db
      .select()
      .from(sessions)
      .where(eq(sessions.ownerId, ownerId))
      .orderBy(desc(sessions.updatedAt))
      .limit(limit);
    return rows.map(toSummary);
  }

  /** Marks activity (new message, rename, profile switch). */
  async touch(id: string, now: number, title?: string, profile?: string | null): Promise<void> {
    await this.db
      .update(sessions)
      .set({ updatedAt: now, ...(title === undefined ? {} : { title }), ...(profile === undefined ? {} : { profile }) })
      .where(eq(sessions.id, id));
  }

  /** Removes a session from the index. */
  async remove(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }
}
