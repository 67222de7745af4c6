/**
 * TurnStore: the session DO's turn state in its SQLite — turns, the stream event log, model
 * messages, approvals and "always allow" choices. Synchronous (DO SQLite is in-process); one row per
 * event and per message, never a growing blob.
 */
import type { ModelMessage } from "ai";
import { and, asc, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type { ApprovalDecision } from "../runtime/tool-executor";
import { RowChunks } from "./row-chunks";
import * as schema from "./schema";

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

/** A turn row. */
export type TurnRow = typeof schema.turns.$inferSelect;
/** An approval row. */
export type ApprovalRow = typeof schema.approvals.$inferSelect;
/** Turn statuses that mean "still going". */
export const OPEN_STATUSES = ["running", "awaiting_approval"] as const;

/** Turn state storage. */
export class TurnStore {
  private readonly chunks: RowChunks;
  private insertEvent: { run(values: { idx: number; turnId: string; chunk: string }): unknown } | undefined;

  constructor(private readonly db: SessionDb) {
    this.chunks = new RowChunks(db);
  }

  /** The newest turn, if any. */
  lastTurn(): TurnRow | undefined {
    return this.db.select().from(schema.turns).orderBy(desc(schema.turns.seq)).limit(1).get();
  }

  /** A turn still running or waiting for an approval. */
  openTurn(): TurnRow | undefined {
    return this.db
      .select()
      .from(schema.turns)
      .where(inArray(schema.turns.status, [...OPEN_STATUSES]))
      .limit(1)
      .get();
  }

  /** Starts a turn. */
  insertTurn(row: typeof schema.turns.$inferInsert): void {
    this.db.insert(schema.turns).values(row).run();
  }

  /** Updates a turn's state. */
  updateTurn(id: string, patch: Partial<typeof schema.turns.$inferInsert>): void {
    this.db.update(schema.turns).set(patch).where(eq(schema.turns.id, id)).run();
  }

  /** The next event index of the session's stream. */
  nextEventIndex(): number {
    const row = this.db
      .select({ max: sql<number | null>`max(${schema.streamEvents.idx})` })
      .from(schema.streamEvents)
      .get();
    return (row?.max ?? -1) + 1;
  }

  /**
   * Appends events (a batch: written in one event-loop turn, so one commit) through one prepared
   * insert — drizzle builds its SQL once per instance, not once per batch.
   */
  appendEvents(events: readonly { idx: number; turnId: string; chunk: string }[]): void {
    this.insertEvent ??= this.db
      .insert(schema.streamEvents)
      .values({ idx: sql.placeholder("idx"), turnId: sql.placeholder("turnId"), chunk: sql.placeholder("chunk") })
      .prepare();
    for (const e of events)
      this.insertEvent.run({ idx: e.idx, turnId: e.turnId, chunk: this.chunks.fit(`ev:${e.idx}`, e.chunk) });
  }

  /** A turn's events from index `from` on. */
  eventsOf(turnId: string, from = 0): { idx: number; chunk: string }[] {
    return this.db
      .select({ idx: schema.streamEvents.idx, chunk: schema.streamEvents.chunk })
      .from(schema.streamEvents)
      .where(and(eq(schema.streamEvents.turnId, turnId), gte(schema.streamEvents.idx, from)))
      .orderBy(asc(schema.streamEvents.idx))
      .all()
      .map((r) => ({ idx: r.idx, chunk: this.chunks.restore(r.chunk) }));
  }

  /**
   * Appends model messages of a turn. A tool message is stored one row per result (merged back on
   * read), so a round with many large results never approaches the 2 MB row limit.
   */
  appendModelMessages(turnId: string, messages: readonly ModelMessage[]): void {
    const insert = (message: ModelMessage) => {
      const json = JSON.stringify(message);
      const fitted = this.chunks.fit(`mm:${turnId}:${crypto.randomUUID()}`, json);
      this.db
        .insert(schema.modelMessages)
        .values({ turnId, message: fitted === json ? message : (JSON.parse(fitted) as unknown) })
        .run();
    };
    for (const message of messages) {
      if (message.role === "tool" && message.content.length > 1) {
        for (const part of message.content) insert({ role: "tool", content: [part] });
      } else insert(message);
    }
  }

  /** The model transcript, oldest first, with the turn each message belongs to (split tool rows merged). */
  modelMessages(): { turnId: string; message: ModelMessage }[] {
    const rows = this.db
      .select({ turnId: schema.modelMessages.turnId, message: schema.modelMessages.message })
      .from(schema.modelMessages)
      .orderBy(asc(schema.modelMessages.seq))
      .all();
    const out: { turnId: string; message: ModelMessage }[] = [];
    for (const row of rows) {
      const message = this.chunks.restoreParsed(row.message) as ModelMessage;
      const last = out.at(-1);
      if (message.role === "tool" && last?.message.role === "tool" && last.turnId === row.turnId) {
        last.message = { role: "tool", content: [...last.message.content, ...message.content] };
      } else out.push({ turnId: row.turnId, message });
    }
    return out;
  }

  /** Records a pending approval. */
  insertApproval(row: {
    id: string;
    turnId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
    now: number;
  }): void {
    this.db
      .insert(schema.approvals)
      .values({
        id: row.id,
        turnId: row.turnId,
        toolCallId: row.toolCallId,
        toolName: row.toolName,
        input: row.input ?? null,
        status: "pending",
        createdAt: row.now,
      })
      .run();
  }

  /** One approval by id. */
  approval(id: string): ApprovalRow | undefined {
    return this.db.select().from(schema.approvals).where(eq(schema.approvals.id, id)).get();
  }

  /** The decided approval of a tool call, if the user already answered it. */
  decidedApprovalFor(toolCallId: string): ApprovalRow | undefined {
    return this.db
      .select()
      .from(schema.approvals)
      .where(and(eq(schema.approvals.toolCallId, toolCallId), sql`${schema.approvals.status} != 'pending'`))
      .get();
  }

  /** Pending approvals of a turn. */
  pendingApprovals(turnId: string): ApprovalRow[] {
    return this.db
      .select()
      .from(schema.approvals)
      .where(and(eq(schema.approvals.turnId, turnId), eq(schema.approvals.status, "pending")))
      .all();
  }

  /** Stores the user's decision (and "always" for the rest of the session). */
  decide(id: string, decision: ApprovalDecision, now: number, by: string | null = null): void {
    this.db
      .update(schema.approvals)
      .set({
        status: decision.decision,
        editedInput: decision.decision === "edit" ? (decision.input ?? null) : null,
        reason: decision.decision === "deny" ? (decision.reason ?? null) : null,
        decidedAt: now,
        decidedBy: by,
      })
      .where(eq(schema.approvals.id, id))
      .run();
  }

  /** Denies whatever is still pending in a turn (it was cancelled). */
  denyPending(turnId: string, now: number): void {
    this.db
      .update(schema.approvals)
      .set({ status: "deny", reason: "turn cancelled", decidedAt: now })
      .where(and(eq(schema.approvals.turnId, turnId), eq(schema.approvals.status, "pending")))
      .run();
  }

  /** Remembers "always allow" for a tool. */
  allowAlways(toolName: string): void {
    this.db.insert(schema.alwaysAllowed).values({ toolName }).onConflictDoNothing().run();
  }

  /** Tools allowed for the rest of the session. */
  alwaysAllowedTools(): Set<string> {
    return new Set(
      this.db
        .select()
        .from(schema.alwaysAllowed)
        .all()
        .map((r) => r.toolName),
    );
  }

  /** Records where a turn's trace is. */
  indexTrace(turnId: string, key: string, lines: number, bytes: number, now: number): void {
    this.db
      .insert(schema.traces)
      .values({ turnId, key, lines, bytes, updatedAt: now })
      .onConflictDoUpdate({ target: schema.traces.turnId, set: { key, lines, bytes, updatedAt: now } })
      .run();
  }

  /** A turn's trace index row. */
  traceOf(turnId: string): typeof schema.traces.$inferSelect | undefined {
    return this.db.select().from(schema.traces).where(eq(schema.traces.turnId, turnId)).get();
  }

  /** Records a notification once (the id is the task id, so a redelivery changes nothing). */
  insertNotification(id: string, text: string, now: number): boolean {
    const inserted = this.db
      .insert(schema.notifications)
      .values({ id, text, createdAt: now })
      .onConflictDoNothing()
      .returning()
      .all();
    return inserted.length > 0;
  }

  /** The oldest notification not yet reported. */
  nextNotification(): typeof schema.notifications.$inferSelect | undefined {
    return this.db
      .select()
      .from(schema.notifications)
      .where(isNull(schema.notifications.deliveredAt))
      .orderBy(asc(schema.notifications.createdAt))
      .limit(1)
      .get();
  }

  /** Marks a notification reported. */
  markDelivered(id: string, now: number): void {
    this.db.update(schema.notifications).set({ deliveredAt: now }).where(eq(schema.notifications.id, id)).run();
  }
}

/** Turns a stored approval into the runtime's decision shape. */
export function decisionOf(row: ApprovalRow): ApprovalDecision | undefined {
  switch (row.status) {
    case "allow":
    case "always":
      return { decision: row.status };
    case "edit":
      return { decision: "edit", input: row.editedInput };
    case "deny":
      return { decision: "deny", ...(row.reason ? { reason: row.reason } : {}) };
    default:
      return undefined;
  }
}
