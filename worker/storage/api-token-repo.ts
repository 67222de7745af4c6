/**
 * D1ApiTokens: API tokens of `AUTH_MODE=token`, stored as SHA-256 hashes. A token is found by its
 * hash in one indexed query; revoking deletes the row, so a revoked token and a wrong one take the
 * same path (no row).
 */
import { and, desc, eq, lt, or, isNull } from "drizzle-orm";
import type { ApiTokenSummary } from "../contracts/identity";
import type { Db } from "./db";
import { apiTokens } from "./schema";

type Row = typeof apiTokens.$inferSelect;

/** How often a token's `lastUsedAt` is refreshed (ms): once per 10 minutes is enough for a listing. */
const TOUCH_EVERY_MS = 10 * 60 * 1000;

function toSummary(row: Row): ApiTokenSummary {
  return {
    id: row.id,
    user: row.userId,
    label: row.label,
    createdBy: row.createdBy,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
  };
}

/** API tokens in D1. */
export class D1ApiTokens {
  constructor(private readonly db: Db) {}

  /** Stores a new token's hash. */
  async insert(entry: {
    id: string;
    userId: string;
    label: string;
    tokenHash: string;
    createdBy: "admin" | "user";
    now: number;
  }): Promise<ApiTokenSummary> {
    const row: Row = {
      id: entry.id,
      userId: entry.userId,
      label: entry.label,
      tokenHash: entry.tokenHash,
      createdBy: entry.createdBy,
      createdAt: entry.now,
      lastUsedAt: null,
    };
    await this.db.insert(apiTokens).values(row);
    return toSummary(row);
  }

  /** The live token with this hash, or null (unknown and revoked look the same). */
  async findByHash(tokenHash: string): Promise<{ id: string; userId: string; lastUsedAt: number | null } | null> {
    const row = await this.db.query.apiTokens.findFirst({
      columns: { id: true, userId: true, lastUsedAt: true },
      where: eq(apiTokens.tokenHash, tokenHash),
    });
    return row ?? null;
  }

  /** Records use (at most every few minutes, so reads do not turn into writes). */
  async touch(id: string, now: number): Promise<void> {
    await this.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, now - TOUCH_EVERY_MS))),
      );
  }

  /** True when `lastUsedAt` is old enough to refresh. */
  static stale(lastUsedAt: number | null, now: number): boolean {
    return lastUsedAt === null || lastUsedAt < now - TOUCH_EVERY_MS;
  }

  /** A user's tokens (or everyone's when `userId` is undefined), newest first. */
  async list(userId?: string): Promise<ApiTokenSummary[]> {
    const rows = await this.db
      .select()
      .from(apiTokens)
      .where(userId === undefined ? undefined : eq(apiTokens.userId, userId))
      .orderBy(desc(apiTokens.createdAt))
      .limit(500);
    return rows.map(toSummary);
  }

  /** Revokes a token; scoped to `userId` when given (another user's id counts as unknown). */
  async revoke(id: string, userId?: string): Promise<boolean> {
    const rows = await this.db
      .delete(apiTokens)
      .where(userId === undefined ? eq(apiTokens.id, id) : and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
      .returning({ id: apiTokens.id });
    return rows.length > 0;
  }
}
