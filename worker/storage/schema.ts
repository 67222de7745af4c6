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
