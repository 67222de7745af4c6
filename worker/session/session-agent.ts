/**
 * SessionAgent: one Durable Object per chat session (agents' `Agent`), the host of its turns. It owns
 * the session's SQLite (drizzle, migrated at start-up), fans stream events out to connected clients,
 * and exposes the DO RPC surface (its plain public methods); the turn lifecycle itself is
 * `TurnController` (runtime/turn-controller.ts), its side of the turns (set-up over the bindings,
 * streaming, after-turn work) `sessionTurnHost` (session-turn-host.ts).
 */
import { Agent } from "agents";
import type { MessagePage } from "./session-store";
import { drizzle, type DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { consoleSink } from "../console-sink";
import { loadConfig } from "../config";
import type { TurnWatch } from "../contracts/api";
import { createLogger, type Logger } from "../lib/log";
import { spillKey } from "../runtime/context/spill";
import type { Lang } from "../runtime/errors";
import { TurnController } from "../runtime/turn-controller";
import { foldChunks, toStored } from "../runtime/turn-replay";
import { d1Client } from "./d1-client";
import { R2SpillStore } from "../storage/r2-spill-store";
import bundledMigrations from "./migrations/migrations";
import * as schema from "./schema";
import { SessionStore } from "./session-store";
import { createSessionLog } from "./session-log";
import type { DecisionInput, RpcFailure, SessionInit, StartTurnResult } from "./session-types";
import { TraceWriter } from "./trace-writer";
import { startSetUp, type EarlySetUp } from "./turn-setup";
import { sessionTurnHost } from "./session-turn-host";
import { coalescingD1 } from "./d1-batcher";
import { takeBatched } from "../storage/rate-limit-repo";
import { sseFrame, TurnHub } from "./turn-hub";
import { TurnStore } from "./turn-store";
import type { AuditHead } from "../contracts/audit";
import { signerFor } from "../http/audit-signer";
import { AuditLog } from "./audit-log";
import type { TaskData } from "../contracts/stream-parts";

export type { DecisionInput, RpcFailure, SessionInit, StartTurnResult } from "./session-types";

/** `AUDIT_KEY` from the settings; a misconfigured deployment signs nothing rather than failing turns. */
function auditKeyOf(env: Env): string | undefined {
  try {
    return loadConfig(env).auditKey;
  } catch {
    return undefined;
  }
}

/** Longest a `watchTurn` long-poll waits before answering "unchanged". */
const MAX_WATCH_MS = 25_000;

/** The session Durable Object. Class name = binding name. */
export class SessionAgent extends Agent<Env> {
  private readonly db: DrizzleSqliteDODatabase<typeof schema>;
  private readonly store: SessionStore;
  private readonly turns: TurnStore;
  private readonly hub = new TurnHub();
  private readonly log: Logger;
  private readonly traces: TraceWriter;
  private readonly controller: TurnController;
  private readonly audit: AuditLog;
  /** Set-up work `startTurn` started for the turn it is opening (handed to that turn's set-up). */
  private early: EarlySetUp | undefined;
  /** Long-polls of `watchTurn` waiting for the session's turn state to change. */
  private readonly watchers = new Set<() => void>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    this.store = new SessionStore(this.db);
    this.turns = new TurnStore(this.db);
    this.log = createLogger(consoleSink, { do: "SessionAgent" });
    this.traces = new TraceWriter(env.SPILLS, this.turns, () => this.store.meta()?.id ?? "", this.log);
    const spills = new R2SpillStore(env.SPILLS);
    this.audit = new AuditLog(
      this.db,
      () => signerFor(auditKeyOf(env)),
      (ref) => spills.get(ref),
      this.log,
    );
    const host = sessionTurnHost({
      env,
      ctx,
      db: this.db,
      store: this.store,
      hub: this.hub,
      log: this.log,
      traces: this.traces,
      audit: this.audit,
      keepAlive: () => this.keepAlive(),
      wakeWatchers: () => this.wakeWatchers(),
      takeEarly: () => {
        const early = this.early;
        this.early = undefined;
        return early;
      },
    });
    this.controller = new TurnController(createSessionLog(this.store, this.turns), host);
    void ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, bundledMigrations);
      await this.controller.recover();
    });
  }

  /** Creates the session's record; idempotent for the same id (a retried create changes nothing). */
  async init(init: SessionInit): Promise<void> {
    this.store.init(init);
  }

  /**
   * The session as `GET /api/sessions/:id` returns it, as JSON text (serialised once here rather
   * than structured-cloned over RPC and re-encoded), or null if it was never created. An open turn's
   * assistant message is folded from its events so far.
   */
  async snapshotJson(page?: MessagePage): Promise<string | null> {
    const open = this.turns.openTurn();
    const folded = open ? await foldChunks(this.controller.chunksOf(open.id)) : undefined;
    await this.audit.settled();
    return this.store.snapshotJson(
      open && folded ? toStored(folded, open.assistantMessageId, { status: open.status }) : undefined,
      this.audit.head(),
      page,
    );
  }

  /** A spilled tool result of this session, or null (the key must belong to this session). */
  async readSpill(turnId: string, toolCallId: string): Promise<string | null> {
    const sessionId = this.store.meta()?.id;
    if (!sessionId) return null;
    return new R2SpillStore(this.env.SPILLS).get(spillKey(sessionId, turnId, toolCallId));
  }

  /** A turn's trace as JSONL (the last turn when `turnId` is omitted), or null. */
  async readTrace(turnId?: string): Promise<string | null> {
    const id = turnId ?? this.turns.lastTurn()?.id;
    return id ? this.traces.read(id) : null;
  }

  /** The audit chain's head (null before the first turn ended), after queued writes. */
  async auditHead(): Promise<AuditHead | null> {
    await this.audit.settled();
    return this.audit.head();
  }

  /** Audit entries after `afterSeq` (JSON lines, in order), at most `limit`. */
  async auditLines(afterSeq: number, limit: number): Promise<string[]> {
    await this.audit.settled();
    return this.audit.lines(afterSeq, limit).map((r) => r.line);
  }

  /** Renames the session. */
  async rename(title: string): Promise<void> {
    this.store.setTitle(title);
  }

  /** Renames the session and/or switches its profile (takes effect from the next turn). */
  async update(patch: { title?: string; profile?: string | null }): Promise<{ title: string; profile: string | null }> {
    if (patch.title !== undefined) this.store.setTitle(patch.title);
    if (patch.profile !== undefined) this.store.setProfile(patch.profile);
    const meta = this.store.meta();
    return { title: meta?.title ?? "", profile: meta?.profile ?? null };
  }

  /**
   * The first step of a deletion, before the D1 index row goes: from now on the session takes no turn
   * (startTurn answers not_found, notifications open none), so a session whose erase then fails stays
   * deleted for everyone, its owner included.
   */
  async markDeleted(): Promise<void> {
    this.store.markDeleted(Date.now());
  }

  /** Deletes everything the session holds (a running turn is stopped first). */
  async erase(): Promise<void> {
    await this.audit.settled();
    this.controller.abandon();
    this.hub.close();
    await this.ctx.storage.deleteAll();
  }

  /**
   * A finished background task reports into the session: recorded once per id, then reported by a
   * turn of its own — now if the session is idle, else right after the running turn ends.
   */
  async notify(input: { id: string; text: string }): Promise<{ queued: boolean }> {
    return this.controller.notify(input);
  }

  /** Shows a background task's progress in the running turn (a `data-task` part updated in place). */
  async taskProgress(task: TaskData): Promise<{ delivered: boolean }> {
    return this.controller.progress(task);
  }

  /**
   * Starts a turn for the user's message; 409-style failure while another turn is open. The caller
   * must own the session: another user's (or a never-created) session is `not_found` and nothing is
   * written — the route relies on this check instead of a D1 read before the turn.
   */
  async startTurn(input: {
    text: string;
    /** The person's interface language, for a text that shows none (`errors.ts` `turnLanguage`). */
    lang?: Lang;
    userId: string;
    turnsPerHour?: number;
  }): Promise<StartTurnResult> {
    const meta = this.store.meta();
    const owned = meta !== undefined && meta.deletedAt === null && meta.ownerId === input.userId;
    // In one tick, so through `coalescingD1` they share one D1 round trip: the caller's rate-limit
    // unit (taken whatever the answer, as the limit always was) and, for the owner of an idle
    // session, the turn's set-up reads and memory recall. Nothing is written before the verdict.
    const d1 = coalescingD1(this.env.DB);
    const take =
      input.turnsPerHour !== undefined
        ? takeBatched(d1Client(d1), "turns", input.userId, input.turnsPerHour, Date.now())
        : undefined;
    const early =
      owned && this.controller.liveTurnId() === undefined && !this.turns.openTurn()
        ? startSetUp({
            env: this.env,
            config: loadConfig(this.env),
            log: this.log,
            sessionId: meta.id,
            userId: input.userId,
            profile: meta.profile,
            question: input.text,
            d1,
            recalls: true,
            waitUntil: (work) => this.ctx.waitUntil(work),
          })
        : undefined;
    if (take) {
      const taken = await take;
      if (taken.prune) this.ctx.waitUntil(taken.prune());
      if (!taken.result.ok) {
        early?.settle(false);
        const retryAfterS = Number(taken.result.error.details?.["retryAfterS"] ?? 60);
        return { ok: false, code: "rate_limited", message: taken.result.error.message, retryAfterS };
      }
    }
    if (!owned) return { ok: false, code: "not_found", message: "session not found" };
    // `start` sets the turn up synchronously (host.setUp below takes `early`); a refusal drops it.
    this.early = early;
    try {
      return this.controller.start(input.lang ? { text: input.text, lang: input.lang } : { text: input.text });
    } finally {
      this.early?.settle(false);
      this.early = undefined;
    }
  }

  /**
   * Replays the current (or last) turn's events from index `from`, then follows it live while it runs.
   * `null` when the last turn is over and holds no event at or after `from`: the client has it all
   * (the route answers 204, which tells an EventSource to stop reconnecting).
   */
  async openStream(from: number): Promise<ReadableStream<Uint8Array> | null> {
    const turn = this.turns.lastTurn();
    if (!turn) return this.hub.subscribe([], false);
    this.controller.flushEvents(); // the replay reads the log: events still waiting in the batch go first
    const replay = this.turns.eventsOf(turn.id, from).map((e) => sseFrame(e.idx, e.chunk));
    if (turn.status === "awaiting_approval") return this.hub.subscribe(replay, false, false);
    const live = this.controller.liveTurnId() === turn.id;
    if (!live && replay.length === 0) return null;
    return this.hub.subscribe(replay, live);
  }

  /**
   * The session's turn state as a short key (`<turnId>:<status>`, "" before the first turn) and the
   * last turn. Answers at once when the key differs from `after`, else when it changes or after
   * `waitMs` — a cheap long-poll, so a page follows turns it did not start (notification turns, other
   * tabs, webhooks) over the ordinary `stream?from=N`.
   */
  async watchTurn(after: string | null, waitMs: number): Promise<TurnWatch> {
    const deadline = Date.now() + Math.max(0, Math.min(waitMs, MAX_WATCH_MS));
    for (;;) {
      const now = this.turnWatch();
      const left = deadline - Date.now();
      if (after === null || now.key !== after || left <= 0) return now;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.watchers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.watchers.add(wake);
      });
    }
  }

  private turnWatch(): TurnWatch {
    const last = this.turns.lastTurn();
    if (!last) return { key: "", turn: null };
    return { key: `${last.id}:${last.status}`, turn: { id: last.id, status: last.status } };
  }

  /** Wakes parked `watchTurn` calls (each re-reads the state and answers only on a change). */
  private wakeWatchers(): void {
    for (const wake of this.watchers) wake(); // each wake removes itself; Set iteration allows that
  }

  /** Stops the open turn at once; `{ cancelled: false }` when nothing runs. */
  async cancel(): Promise<{ cancelled: boolean }> {
    return this.controller.cancel();
  }

  /** Answers a pending approval; the turn continues (resumed from storage if the DO was evicted). */
  async decide(approvalId: string, answer: DecisionInput, by?: string): Promise<{ ok: true } | RpcFailure> {
    return this.controller.decide(approvalId, answer, by);
  }
}
