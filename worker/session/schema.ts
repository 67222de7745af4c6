/**
 * The session Durable Object's own SQLite schema (drizzle, durable-sqlite driver). Messages are one
 * row each — never a growing blob, since a DO row caps at 2 MB. Migrations: `npm run db:generate:session`.
 */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The session's own record (one row, id = the session id). */
export const sessionMeta = sqliteTable("session_meta", {
  id: text("id").primaryKey(),
  ownerId: text("owner_id").notNull(),
  title: text("title").notNull(),
  profile: text("profile"),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
  inputTokens: integer("input_tokens").notNull().default(0),
  outputTokens: integer("output_tokens").notNull().default(0),
  reasoningTokens: integer("reasoning_tokens").notNull().default(0),
  cachedInputTokens: integer("cached_input_tokens").notNull().default(0),
  compactionSummary: text("compaction_summary"),
  compactedThrough: integer("compacted_through"),
  compactionCount: integer("compaction_count").notNull().default(0),
});

/** Conversation messages in order (`seq`), each an AI SDK UI message's parts as JSON. */
export const messages = sqliteTable("messages", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  id: text("id").notNull().unique(),
  role: text("role", { enum: ["system", "user", "assistant"] }).notNull(),
  parts: text("parts", { mode: "json" }).notNull(),
  metadata: text("metadata", { mode: "json" }),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
});
