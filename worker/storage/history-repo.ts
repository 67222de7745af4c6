/**
 * D1HistoryRepo: what screening runs leave behind — tracked L4 signals (upserted by symbol, type and
 * signal day, so a re-run updates the status instead of adding rows) and the symbols handed to a
 * report. Writes are idempotent: a redelivered completion writes the same rows again.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { RecommendationRow, SignalRow } from "../contracts/history";
import type { HistoryReader, HistoryWriter, NewRecommendation, NewSignal } from "../ports/history-store";
import type { Db } from "./db";
import { recommendations, signals } from "./schema";

/** D1 writes are capped at 100 bound parameters per statement. */
const ROWS_PER_INSERT = 6;

/** Signals and recommendations in D1. */
export class D1HistoryRepo implements HistoryWriter, HistoryReader {
  constructor(private readonly db: Db) {}

  /** Upserts tracked signals (status, score and run updated on conflict). */
  async upsertSignals(ownerId: string, rows: readonly NewSignal[], now: number): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({
        id: `${ownerId}:${r.code}:${r.signal_type}:${r.signal_date}`,
        ownerId,
        taskId: r.taskId,
        code: r.code,
        name: r.name,
        signalType: r.signal_type,
        signalDate: r.signal_date,
        status: r.status,
        ttlDays: r.ttl_days,
        score: r.signal_score,
        snapClose: r.snap_close,
        regime: r.regime,
        industry: r.industry,
        updatedAt: now,
      }));
      await this.db
        .insert(signals)
        .values(values)
        .onConflictDoUpdate({
          target: signals.id,
          set: { status: sql`excluded.status`, taskId: sql`excluded.task_id`, updatedAt: sql`excluded.updated_at` },
        });
    }
  }

  /** Records a run's recommendations (one row per run and symbol; a repeat is a no-op). */
  async addRecommendations(ownerId: string, rows: readonly NewRecommendation[], now: number): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({
        id: `${r.taskId}:${r.code}`,
        ownerId,
        taskId: r.taskId,
        code: r.code,
        name: r.name,
        recommendDate: r.recommendDate,
        recommendPrice: r.recommendPrice,
        camp: r.camp,
        createdAt: now,
      }));
      await this.db.insert(recommendations).values(values).onConflictDoNothing();
    }
  }

  /** The owner's tracked signals, newest first, with counts by status. */
  async signals(
    ownerId: string,
    q: { status?: string; runDate?: string; limit: number },
  ): Promise<{ rows: SignalRow[]; counts: Record<string, number> }> {
    const where = and(
      eq(signals.ownerId, ownerId),
      q.status ? eq(signals.status, q.status as SignalRow["status"]) : undefined,
      q.runDate ? eq(signals.signalDate, q.runDate) : undefined,
    );
    const rows = await this.db.select().from(signals).where(where).orderBy(desc(signals.signalDate)).limit(q.limit);
    const counted = await this.db
      .select({ status: signals.status, n: sql<number>`count(*)` })
      .from(signals)
      .where(eq(signals.ownerId, ownerId))
      .groupBy(signals.status);
    return {
      rows: rows.map((r) => ({
        code: r.code,
        name: r.name,
        signal_type: r.signalType,
        signal_date: r.signalDate,
        status: r.status,
        ttl_days: r.ttlDays,
        signal_score: r.score,
        snap_close: r.snapClose,
        regime: r.regime,
        industry: r.industry,
        task_id: r.taskId,
      })),
      counts: Object.fromEntries(counted.map((c) => [c.status, Number(c.n)])),
    };
  }

  /** The owner's recommendations, newest first (current price filled in by the caller). */
  async recommendations(ownerId: string, q: { runDate?: string; limit: number }): Promise<RecommendationRow[]> {
    const rows = await this.db
      .select()
      .from(recommendations)
      .where(
        and(eq(recommendations.ownerId, ownerId), q.runDate ? eq(recommendations.recommendDate, q.runDate) : undefined),
      )
      .orderBy(desc(recommendations.createdAt))
      .limit(q.limit);
    return rows.map((r) => ({
      code: r.code,
      name: r.name,
      recommend_date: r.recommendDate,
      recommend_price: r.recommendPrice,
      current_price: null,
      pnl_pct: null,
      camp: r.camp,
      task_id: r.taskId,
    }));
  }
}
