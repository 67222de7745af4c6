/** D1TaskRepo: background tasks in D1, read as `TaskView`s (the `TaskReader` port). */
import { and, desc, eq } from "drizzle-orm";
import type { TaskView } from "../contracts/task";
import type { TaskReader } from "../ports/task-store";
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

/** Tasks in D1. */
export class D1TaskRepo implements TaskReader {
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
}
