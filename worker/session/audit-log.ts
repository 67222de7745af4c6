/**
 * The session's audit chain in its own SQLite: sealed entries appended one turn at a time (serialised,
 * so the chain never forks), read back as JSONL for the export and summarised as the head shown with
 * the session. Building the entries is `runtime/audit/build-entries.ts`; this class gathers the facts
 * the DO holds (events, approvals, the user message, spills) and stores the result.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import { asc, desc, eq, gt } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type { AuditEntry, AuditHead } from "../contracts/audit";
import type { Logger } from "../lib/log";
import { buildAuditBodies, genesisHash, sealAuditEntry, type AuditTurnFacts } from "../runtime/audit/build-entries";
import type { AuditSigner } from "../http/audit-signer";
import * as schema from "./schema";

type SessionDb = DrizzleSqliteDODatabase<typeof schema>;

/** What the DO passes when a turn has ended. */
export interface EndedTurn {
  sessionId: string;
  ownerId: string;
  turn: { id: string; userMessageId: string; startedAt: number };
  endedAt: number;
  status: string;
  modelId: string;
  usage: Record<string, number>;
  settings: Record<string, unknown>;
  chunks: readonly UIMessageChunk[];
  view?: { system: string; messages: readonly ModelMessage[] } | undefined;
}

/** A session's audit chain. */
export class AuditLog {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: SessionDb,
    private readonly signer: () => Promise<AuditSigner>,
    private readonly spillText: (ref: string) => Promise<string | null>,
    private readonly log: Logger,
  ) {}

  /** Appends the entries of an ended turn; failures are logged (the turn's answer is never lost to them). */
  record(ended: EndedTurn): Promise<void> {
    const run = this.queue.then(() => this.append(ended));
    this.queue = run.catch(() => undefined);
    return run.catch((error: unknown) => this.log.error("audit_write_failed", { turnId: ended.turn.id, error }));
  }

  private async append(ended: EndedTurn): Promise<void> {
    const signer = await this.signer();
    const userRow = this.db
      .select()
      .from(schema.messages)
      .where(eq(schema.messages.id, ended.turn.userMessageId))
      .get();
    const metadata = (userRow?.metadata ?? null) as { kind?: unknown } | null;
    const parts = (userRow?.parts ?? []) as { type?: string; text?: string }[];
    const userText = userRow ? parts.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("") : null;
    const approvals = this.db
      .select()
      .from(schema.approvals)
      .where(eq(schema.approvals.turnId, ended.turn.id))
      .all()
      .map((a) => ({ toolCallId: a.toolCallId, status: a.status, decidedBy: a.decidedBy, decidedAt: a.decidedAt }));
    const { costUsd, ...usage } = ended.usage;
    const facts: AuditTurnFacts = {
      sessionId: ended.sessionId,
      turnId: ended.turn.id,
      userId: ended.ownerId,
      kind: metadata?.kind === "notification" ? "notification" : "turn",
      startedAt: ended.turn.startedAt,
      endedAt: ended.endedAt,
      status: ended.status,
      modelId: ended.modelId,
      settings: ended.settings,
      userText,
      chunks: ended.chunks,
      approvals,
      usage,
      costMicros: Math.round((costUsd ?? 0) * 1_000_000),
      view: ended.view,
      spillText: this.spillText,
    };
    const bodies = await buildAuditBodies(facts, signer.crypto);
    const last = this.lastRow();
    let prev = last?.hash ?? (await genesisHash(ended.sessionId, signer.crypto));
    let seq = last?.seq ?? 0;
    const rows: (typeof schema.auditEntries.$inferInsert)[] = [];
    for (const body of bodies) {
      const entry = await sealAuditEntry(body, { seq: ++seq, prev }, signer.crypto);
      rows.push({ seq: entry.seq, turnId: entry.turn, hash: entry.hash, line: JSON.stringify(entry) });
      prev = entry.hash;
    }
    for (const row of rows) this.db.insert(schema.auditEntries).values(row).run();
  }

  private lastRow(): { seq: number; hash: string } | undefined {
    return this.db
      .select({ seq: schema.auditEntries.seq, hash: schema.auditEntries.hash })
      .from(schema.auditEntries)
      .orderBy(desc(schema.auditEntries.seq))
      .limit(1)
      .get();
  }

  /** Waits for queued writes (so a read after a turn sees its entry). */
  async settled(): Promise<void> {
    await this.queue;
  }

  /** The chain's head, or null before the first entry. */
  head(): AuditHead | null {
    const last = this.db.select().from(schema.auditEntries).orderBy(desc(schema.auditEntries.seq)).limit(1).get();
    if (!last) return null;
    const entry = JSON.parse(last.line) as AuditEntry;
    return { head: last.hash, count: last.seq, signed: entry.sig !== null, keyId: entry.keyId };
  }

  /** Entries from `afterSeq` on, at most `limit`, as their stored JSON lines. */
  lines(afterSeq: number, limit: number): { seq: number; line: string }[] {
    return this.db
      .select({ seq: schema.auditEntries.seq, line: schema.auditEntries.line })
      .from(schema.auditEntries)
      .where(gt(schema.auditEntries.seq, afterSeq))
      .orderBy(asc(schema.auditEntries.seq))
      .limit(limit)
      .all();
  }
}
