/**
 * Values over the row budget, split across `row_chunks` rows (`lib/size-budget.ts`). The owning row
 * holds a small JSON marker `{"$rowChunks":"<key>","n":N}` instead of the value; reads put it back.
 * Used by the session stores for stream events, UI messages and model messages.
 */
import { asc, eq } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { splitToBudget } from "../lib/size-budget";
import * as schema from "./schema";

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

const MARKER_HEAD = '{"$rowChunks":';

/** Splits and stores large values; restores them on read. */
export class RowChunks {
  constructor(private readonly db: SessionDb) {}

  /** `json` itself when it fits a row, else the marker of its pieces (stored under `key`). */
  fit(key: string, json: string): string {
    const pieces = splitToBudget(json);
    if (pieces.length === 1) return json;
    this.db.delete(schema.rowChunks).where(eq(schema.rowChunks.key, key)).run();
    pieces.forEach((body, seq) => this.db.insert(schema.rowChunks).values({ key, seq, body }).run());
    return JSON.stringify({ $rowChunks: key, n: pieces.length });
  }

  /** The stored value: `value` itself, or its pieces joined when it is a marker. */
  restore(value: string): string {
    if (!value.startsWith(MARKER_HEAD)) return value;
    const marker = JSON.parse(value) as { $rowChunks: string; n: number };
    const rows = this.db
      .select({ body: schema.rowChunks.body })
      .from(schema.rowChunks)
      .where(eq(schema.rowChunks.key, marker.$rowChunks))
      .orderBy(asc(schema.rowChunks.seq))
      .all();
    return rows.map((r) => r.body).join("");
  }

  /** A parsed JSON column value, restored when it is a marker. */
  restoreParsed(value: unknown): unknown {
    return RowChunks.isMarker(value) ? (JSON.parse(this.restore(JSON.stringify(value))) as unknown) : value;
  }

  /** True when a parsed column value is a marker. */
  static isMarker(value: unknown): value is { $rowChunks: string; n: number } {
    return typeof value === "object" && value !== null && "$rowChunks" in value;
  }
}
