/** D1UsageRepo: model usage per owner, UTC day, model and purpose (`usage_daily`), for `GET /api/usage`. */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Logger } from "../lib/log";
import type { UsageEntry } from "../runtime/usage";
import type { Db } from "./db";
import { usageDaily } from "./schema";

/** Usage of one purpose and model to add (a turn's rounds, a report, a memory pass, …). */
export interface UsageAdd {
  ownerId: string;
  day: string;
  model: string;
  /** turn | subagent | report | summary | memory. */
  purpose: string;
  /** Model calls in this addition (turn purpose: 1 = one turn). */
  calls: number;
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
  purpose: string;
  /** Turns (purpose `turn`) or model calls (other purposes). */
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

  /** Adds usage (upsert on owner/day/model/purpose). */
  async add(u: UsageAdd): Promise<void> {
    const costMicros = Math.round(u.costUsd * 1_000_000);
    await this.db
      .insert(usageDaily)
      .values({
        ownerId: u.ownerId,
        day: u.day,
        model: u.model,
        purpose: u.purpose,
        turns: u.calls,
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        cacheReadTokens: u.cacheReadTokens,
        cacheWriteTokens: u.cacheWriteTokens,
        costMicros,
      })
      .onConflictDoUpdate({
        target: [usageDaily.ownerId, usageDaily.day, usageDaily.model, usageDaily.purpose],
        set: {
          turns: sql`${usageDaily.turns} + ${u.calls}`,
          inputTokens: sql`${usageDaily.inputTokens} + ${u.inputTokens}`,
          outputTokens: sql`${usageDaily.outputTokens} + ${u.outputTokens}`,
          cacheReadTokens: sql`${usageDaily.cacheReadTokens} + ${u.cacheReadTokens}`,
          cacheWriteTokens: sql`${usageDaily.cacheWriteTokens} + ${u.cacheWriteTokens}`,
          costMicros: sql`${usageDaily.costMicros} + ${costMicros}`,
        },
      });
  }

  /**
   * Adds each entry that used any tokens (`turns` += the entry's `calls`), stamped with `now`'s UTC
   * day; a failure is logged, never thrown (usage bookkeeping must not fail the work it measures).
   */
  async addEntries(ownerId: string, now: number, entries: readonly UsageEntry[], log: Logger): Promise<void> {
    const day = new Date(now).toISOString().slice(0, 10);
    for (const e of entries) {
      const u = e.usage;
      if (!e.modelId || (u.inputTokens === 0 && u.outputTokens === 0 && u.costUsd === 0)) continue;
      await this.add({
        ownerId,
        day,
        model: e.modelId,
        purpose: e.purpose,
        calls: e.calls,
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        cacheReadTokens: u.cachedInputTokens,
        cacheWriteTokens: u.cacheWriteTokens,
        costUsd: u.costUsd,
      }).catch((error: unknown) => log.error("usage_record_failed", { error, purpose: e.purpose }));
    }
  }

  /** The owner's usage since `fromDay` (inclusive), newest first. */
  async since(ownerId: string, fromDay: string): Promise<UsageRow[]> {
    const rows = await this.db
      .select()
      .from(usageDaily)
      .where(and(eq(usageDaily.ownerId, ownerId), gte(usageDaily.day, fromDay)))
      .orderBy(desc(usageDaily.day), usageDaily.model, usageDaily.purpose);
    return rows.map((r) => ({
      day: r.day,
      model: r.model,
      purpose: r.purpose,
      turns: r.turns,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      cacheReadTokens: r.cacheReadTokens,
      cacheWriteTokens: r.cacheWriteTokens,
      costUsd: r.costMicros / 1_000_000,
    }));
  }
}
