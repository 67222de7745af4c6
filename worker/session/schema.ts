/**
 * The session Durable Object's own SQLite schema (drizzle, durable-sqlite driver). Messages are one
 * row each — never a growing blob, since a DO row caps at 2 MB. Migrations: `npm run db:generate:session`.
 */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
  cacheWriteTokens: integer("cache_write_tokens").notNull().default(0),
  costMicros: integer("cost_micros").notNull().default(0),
  compactionSummary: text("compaction_summary"),
  compactedThrough: integer("compacted_through"),
  compactionCount: integer("compaction_count").notNull().default(0),
  /** Set by a deletion before the D1 index row goes: a session whose erase then failed takes no turn. */
  deletedAt: integer("deleted_at", { mode: "number" }),
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

/** What the model sees: one row per model message (user, assistant, tool), in order. */
export const modelMessages = sqliteTable("model_messages", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  turnId: text("turn_id").notNull(),
  message: text("message", { mode: "json" }).notNull(),
});

/** One row per turn: its state and where its events are. */
export const turns = sqliteTable("turns", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  id: text("id").notNull().unique(),
  status: text("status", {
    enum: ["running", "awaiting_approval", "done", "cancelled", "error", "rounds_exceeded"],
  }).notNull(),
  userMessageId: text("user_message_id").notNull(),
  assistantMessageId: text("assistant_message_id").notNull(),
  lang: text("lang", { enum: ["zh", "en"] }).notNull(),
  modelId: text("model_id"),
  rounds: integer("rounds").notNull().default(0),
  error: text("error"),
  startedAt: integer("started_at", { mode: "number" }).notNull(),
  endedAt: integer("ended_at", { mode: "number" }),
});

/** The stream event log: every part of every turn, with its index in the session's stream. */
export const streamEvents = sqliteTable("stream_events", {
  idx: integer("idx").primaryKey(),
  turnId: text("turn_id").notNull(),
  chunk: text("chunk").notNull(),
});

/** Tool approvals: pending until the user decides; they survive eviction. */
export const approvals = sqliteTable("approvals", {
  id: text("id").primaryKey(),
  turnId: text("turn_id").notNull(),
  toolCallId: text("tool_call_id").notNull(),
  toolName: text("tool_name").notNull(),
  input: text("input", { mode: "json" }),
  status: text("status", { enum: ["pending", "allow", "always", "edit", "deny"] }).notNull(),
  editedInput: text("edited_input", { mode: "json" }),
  reason: text("reason"),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
  decidedAt: integer("decided_at", { mode: "number" }),
  /** Who answered (the signed-in user), for the audit trail. */
  decidedBy: text("decided_by"),
});

/** Tools the user allowed "always" for the rest of the session. */
export const alwaysAllowed = sqliteTable("always_allowed", {
  toolName: text("tool_name").primaryKey(),
});

/** System notifications (finished background tasks) waiting to be reported into the session. */
export const notifications = sqliteTable("notifications", {
  id: text("id").primaryKey(),
  text: text("text").notNull(),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
  deliveredAt: integer("delivered_at", { mode: "number" }),
});

/** Where each turn's trace (JSONL in R2) is. */
export const traces = sqliteTable("traces", {
  turnId: text("turn_id").primaryKey(),
  key: text("key").notNull(),
  lines: integer("lines").notNull(),
  bytes: integer("bytes").notNull(),
  updatedAt: integer("updated_at", { mode: "number" }).notNull(),
});

/**
 * The session's audit chain: one sealed entry per turn, notification turn or pipeline step, as the
 * canonical JSON line that is hashed and exported (bounded by `AUDIT_ENTRY_CHARS`).
 */
export const auditEntries = sqliteTable("audit_entries", {
  seq: integer("seq").primaryKey(),
  turnId: text("turn_id").notNull(),
  hash: text("hash").notNull(),
  line: text("line").notNull(),
});

/**
 * Pieces of values too large for one row (`lib/size-budget.ts`): a stream event, UI message or model
 * message over the row budget is stored here in order under `key`, and its own row holds a marker.
 */
export const rowChunks = sqliteTable(
  "row_chunks",
  {
    key: text("key").notNull(),
    seq: integer("seq").notNull(),
    body: text("body").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);
