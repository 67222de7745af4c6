/**
 * The D1 schema (drizzle): the only place tables are declared. `npm run db:generate` turns changes
 * into a new file under migrations/ (append-only once merged).
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Index of chat sessions per owner; the messages themselves live in each session's Durable Object. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    title: text("title").notNull(),
    profile: text("profile"),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("sessions_owner_updated").on(t.ownerId, t.updatedAt)],
);

/** Background tasks (screening, backtests, reports): queued on Queues, reported back into sessions. */
export const tasks = sqliteTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    ownerId: text("owner_id").notNull(),
    sessionId: text("session_id"),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "cancelled"] }).notNull(),
    progressStage: text("progress_stage").notNull().default(""),
    progressDetail: text("progress_detail").notNull().default(""),
    progressPct: integer("progress_pct").notNull().default(0),
    input: text("input", { mode: "json" }),
    result: text("result", { mode: "json" }),
    resultRef: text("result_ref"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    idempotencyKey: text("idempotency_key").unique(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("tasks_owner_session").on(t.ownerId, t.sessionId, t.createdAt)],
);
