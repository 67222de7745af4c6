/**
 * Port: what screening runs leave behind — tracked L4 signals and the symbols handed to a report —
 * and the reads behind `query_history`. The D1 adapter is storage/history-repo.ts.
 */
import type { RecommendationRow, SignalRow } from "../contracts/history";

/** A signal to track. */
export type NewSignal = Omit<SignalRow, "task_id"> & { taskId: string };

/** A recommendation to record. */
export interface NewRecommendation {
  taskId: string;
  code: string;
  name: string;
  recommendDate: string;
  recommendPrice: number;
  camp: string | null;
}

/** Writes a run's history rows (idempotent: a redelivered completion writes the same rows again). */
export interface HistoryWriter {
  /** Upserts tracked signals (status, score and run updated on conflict). */
  upsertSignals(ownerId: string, rows: readonly NewSignal[], now: number): Promise<void>;
  /** Records a run's recommendations (one row per run and symbol; a repeat is a no-op). */
  addRecommendations(ownerId: string, rows: readonly NewRecommendation[], now: number): Promise<void>;
}

/** Reads an owner's history rows. */
export interface HistoryReader {
  signals(
    ownerId: string,
    q: { status?: string; runDate?: string; limit: number },
  ): Promise<{ rows: SignalRow[]; counts: Record<string, number> }>;
  recommendations(ownerId: string, q: { runDate?: string; limit: number }): Promise<RecommendationRow[]>;
}
