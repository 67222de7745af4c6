/**
 * D1Shares: read-only share links. The token is kept only as its SHA-256; a lookup is one query on
 * the hash that also filters out expired links, and revoking deletes the row, so a wrong, revoked or
 * expired token all come back as "no row" through the same path.
 */
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { ShareSummary } from "../contracts/share";
import type { Db } from "./db";
import { sessions, shares } from "./schema";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A live share as the read routes need it. */
export interface LiveShare {
  id: string;
  ownerId: string;
  sessionId: string;
  expiresAt: number | null;
  /** The link exposes the session's audit export. */
  exposeAudit: boolean;
}

/** Share links in D1. */
export class D1Shares {
  constructor(private readonly db: Db) {}

  /** Stores a new share. */
  async insert(entry: LiveShare & { tokenHash: string; now: number }): Promise<void> {
    await this.db.insert(shares).values({
      id: entry.id,
      tokenHash: entry.tokenHash,
      ownerId: entry.ownerId,
      sessionId: entry.sessionId,
      createdAt: entry.now,
      expiresAt: entry.expiresAt,
      exposeAudit: entry.exposeAudit,
    });
  }

  /** The live (unrevoked, unexpired) share with this token hash, or null. */
  async findLive(tokenHash: string, now: number): Promise<LiveShare | null> {
    const row = await this.db.query.shares.findFirst({
      columns: { id: true, ownerId: true, sessionId: true, expiresAt: true, exposeAudit: true },
      where: and(eq(shares.tokenHash, tokenHash), or(isNull(shares.expiresAt), gt(shares.expiresAt, now))),
    });
    return row ?? null;
  }

  /** The owner's shares (expired ones included, marked), newest first, with their sessions' titles. */
  async list(ownerId: string, now: number): Promise<ShareSummary[]> {
    const rows = await this.db
      .select({
        id: shares.id,
        sessionId: shares.sessionId,
        createdAt: shares.createdAt,
        expiresAt: shares.expiresAt,
        title: sessions.title,
      })
      .from(shares)
      .leftJoin(sessions, eq(sessions.id, shares.sessionId))
      .where(eq(shares.ownerId, ownerId))
      .orderBy(desc(shares.createdAt))
      .limit(500);
    return rows.map((r) => ({
      id: r.id,
      sessionId: r.sessionId,
      sessionTitle: r.title,
      createdAt: new Date(r.createdAt).toISOString(),
      expiresAt: iso(r.expiresAt),
      expired: r.expiresAt !== null && r.expiresAt <= now,
    }));
  }

  /** Revokes the owner's share by id or by token hash; false when there is no such share of theirs. */
  async revoke(ownerId: string, key: { id: string } | { tokenHash: string }): Promise<boolean> {
    const which = "id" in key ? eq(shares.id, key.id) : eq(shares.tokenHash, key.tokenHash);
    const rows = await this.db
      .delete(shares)
      .where(and(which, eq(shares.ownerId, ownerId)))
      .returning({ id: shares.id });
    return rows.length > 0;
  }
}
