/** D1UsageRepo: model usage per owner, UTC day and model (`usage_daily`), for `GET /api/usage`. */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "./db";
import { usageDaily } from "./schema";

/** One turn's usage to add. */
export interface UsageAdd {
  ownerId: string;
  day: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

/** A row of the usage summary. */
export interface UsageRow {
  day: string;
  model: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

/** Usage in D1. */
export class D1UsageRepo {
  constructor(private readonly db: Db) {}

  /** Adds one turn (upsert on owner/day/model). */
  async add(u: UsageAdd): Promise<void> {
    const costMicros = Math.round(u.costUsd * 1_000_000);
    await this.db
      .insert(usageDaily)
      .values({
        ownerId: u.ownerId,
        day: u.day,
        model: u.model,
        turns: 1,
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        cacheReadTokens: u.cacheReadTokens,
        cacheWriteTokens: u.cacheWriteTokens,
        costMicros,
      })
      .onConflictDoUpdate({
        target: [usageDaily.ownerId, usageDaily.day, usageDaily.model],
        set: {
          turns: sql`${usageDaily.turns} + 1`,
          inputTokens: sql`${usageDaily.inputTokens} + ${u.inputTokens}`,
          outputTokens: sql`${usageDaily.outputTokens} + ${u.outputTokens}`,
          cacheReadTokens: sql`${usageDaily.cacheReadTokens} + ${u.cacheReadTokens}`,
          cacheWriteTokens: sql`${usageDaily.cacheWriteTokens} + ${u.cacheWriteTokens}`,
          costMicros: sql`${usageDaily.costMicros} + ${costMicros}`,
        },
      });
  }

  /** The owner's usage since `fromDay` (inclusive), newest first. */
  async since(ownerId: string, fromDay: string): Promise<UsageRow[]> {
    const rows = await this.db
      .select()
      .from(usageDaily)
      .where(and(eq(usageDaily.ownerId, ownerId), gte(usageDaily.day, fromDay)))
      .orderBy(desc(usageDaily.day), usageDaily.model);
    return rows.map((r) => ({
      day: r.day,
      model: r.model,
      turns: r.turns,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      cacheReadTokens: r.cacheReadTokens,
      cacheWriteTokens: r.cacheWriteTokens,
      costUsd: r.costMicros / 1_000_000,
    }));
  }
}
