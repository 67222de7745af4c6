/**
 * D1TaskRepo: background tasks in D1 (the `TaskReader` and `TaskWriter` ports). Status changes are
 * single conditional UPDATEs (`WHERE status IN (…)`), so a redelivered message or a second worker
 * can never complete, fail or cancel a task twice.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { excerpt } from "../lib/size-budget";
import type { TaskStatus, TaskView } from "../contracts/task";
import type { NewTask, TaskPatch, TaskReader, TaskRecord, TaskWriter } from "../ports/task-store";
import type { Db } from "./db";
import { tasks } from "./schema";

type Row = typeof tasks.$inferSelect;

function toView(row: Row): TaskView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: { stage: row.progressStage, detail: row.progressDetail, pct: row.progressPct },
    ...(row.result !== null && row.result !== undefined ? { result: row.result as TaskView["result"] } : {}),
    ...(row.error ? { error: row.error } : {}),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function toRecord(row: Row): TaskRecord {
  return {
    view: toView(row),
    ownerId: row.ownerId,
    sessionId: row.sessionId,
    input: row.input,
    resultRef: row.resultRef,
    attempts: row.attempts,
  };
}

/** Tasks in D1. */
export class D1TaskRepo implements TaskReader, TaskWriter {
  constructor(private readonly db: Db) {}

  async listForSession(ownerId: string, sessionId: string): Promise<TaskView[]> {
    const rows = await this.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.ownerId, ownerId), eq(tasks.sessionId, sessionId)))
      .orderBy(desc(tasks.createdAt))
      .limit(50);
    return rows.map(toView);
  }

  async get(ownerId: string, taskId: string): Promise<TaskView | null> {
    const row = await this.db.query.tasks.findFirst({ where: and(eq(tasks.id, taskId), eq(tasks.ownerId, ownerId)) });
    return row ? toView(row) : null;
  }

  async create(t: NewTask): Promise<{ record: TaskRecord; created: boolean }> {
    const inserted = await this.db
      .insert(tasks)
      .values({
        id: t.id,
        kind: t.kind,
        ownerId: t.ownerId,
        sessionId: t.sessionId,
        status: "queued",
        progressStage: "queued",
        progressDetail: "waiting for a worker",
        progressPct: 0,
        input: t.input,
        idempotencyKey: t.idempotencyKey ?? null,
        createdAt: t.now,
        updatedAt: t.now,
      })
      .onConflictDoNothing({ target: tasks.idempotencyKey })
      .returning();
    const row = inserted[0];
    if (row) return { record: toRecord(row), created: true };
    const existing = t.idempotencyKey
      ? await this.db.query.tasks.findFirst({ where: eq(tasks.idempotencyKey, t.idempotencyKey) })
      : undefined;
    if (!existing) throw new Error(`task ${t.id} was neither inserted nor found`);
    return { record: toRecord(existing), created: false };
  }

  async record(taskId: string): Promise<TaskRecord | null> {
    const row = await this.db.query.tasks.findFirst({ where: eq(tasks.id, taskId) });
    return row ? toRecord(row) : null;
  }

  async transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatch, now: number): Promise<boolean> {
    const set: Partial<typeof tasks.$inferInsert> = { updatedAt: now };
    if (patch.status) set.status = patch.status;
    if (patch.progress) {
      set.progressStage = patch.progress.stage;
      set.progressDetail = patch.progress.detail;
      set.progressPct = Math.round(patch.progress.pct);
    }
    if (patch.result !== undefined) set.result = patch.result;
    if (patch.resultRef !== undefined) set.resultRef = patch.resultRef;
    if (patch.error !== undefined) set.error = patch.error === null ? null : excerpt(patch.error, 4000); // a D1 row stays small
    const changed = await this.db
      .update(tasks)
      .set(set)
      .where(and(eq(tasks.id, taskId), inArray(tasks.status, [...from])))
      .returning({ id: tasks.id });
    return changed.length > 0;
  }

  async countAttempt(taskId: string, now: number): Promise<void> {
    await this.db
      .update(tasks)
      .set({ attempts: sql`${tasks.attempts} + 1`, updatedAt: now })
      .where(eq(tasks.id, taskId));
  }
}
