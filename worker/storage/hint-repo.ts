/** D1HintRepo: scenario hints (shipped ones with owner `*`, plus each user's own). */
import { and, eq, inArray } from "drizzle-orm";
import type { Hint } from "../lib/match-hints";
import type { Db } from "./db";
import { promptHints } from "./schema";

export type { Hint };

type Row = typeof promptHints.$inferSelect;

/** The shipped hints and the user's own: one query, so a turn's set-up can put it in a D1 batch. */
export function hintsQuery(db: Db, userId: string) {
  return db
    .select()
    .from(promptHints)
    .where(inArray(promptHints.ownerId, ["*", userId]));
}

/** A stored hint row as the prompt reads it. */
export function toHint(r: Row): Hint {
  return {
    id: r.id,
    keywords: r.keywords
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
    text: r.text,
    builtin: r.ownerId === "*",
  };
}

/** Hints in D1. */
export class D1HintRepo {
  constructor(private readonly db: Db) {}

  /** Shipped hints and the user's own. */
  async list(userId: string): Promise<Hint[]> {
    return (await hintsQuery(this.db, userId)).map(toHint);
  }

  /** Adds a hint of the user's. */
  async create(userId: string, id: string, keywords: string[], text: string, now: number): Promise<Hint> {
    await this.db
      .insert(promptHints)
      .values({ id, ownerId: userId, keywords: keywords.join(","), text, createdAt: now });
    return { id, keywords, text, builtin: false };
  }

  /** Updates one of the user's hints; null when it is not theirs (shipped hints are read-only). */
  async update(userId: string, id: string, patch: { keywords?: string[]; text?: string }): Promise<Hint | null> {
    const set: Partial<Row> = {};
    if (patch.keywords) set.keywords = patch.keywords.join(",");
    if (patch.text !== undefined) set.text = patch.text;
    const rows = await this.db
      .update(promptHints)
      .set(set)
      .where(and(eq(promptHints.id, id), eq(promptHints.ownerId, userId)))
      .returning();
    return rows[0] ? toHint(rows[0]) : null;
  }

  /** Deletes one of the user's hints. */
  async remove(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(promptHints)
      .where(and(eq(promptHints.id, id), eq(promptHints.ownerId, userId)))
      .returning();
    return rows.length > 0;
  }
}
