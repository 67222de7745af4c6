/**
 * SessionAgent: one Durable Object per chat session (agents' `Agent`). Wiring only: it owns the
 * session's SQLite (drizzle, migrated at start-up), builds the runtime's ports, runs one turn at a
 * time through `runTurn`, stores every stream event and fans it out to connected clients.
 * Plain public methods are its DO RPC surface.
 */
import { Agent } from "agents";
import type { ModelMessage, UIMessageChunk } from "ai";
import { drizzle, type DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import { consoleSink } from "../console-sink";
import { loadConfig, type Config } from "../config";
import type { TurnWatch } from "../contracts/api";
import { formatId } from "../lib/ids";
import { createLogger, type Logger } from "../lib/log";
import { languageOf } from "../runtime/errors";
import { spillKey } from "../runtime/context/spill";
import { runTurn, type TurnResult } from "../runtime/run-turn";
import { ZERO_USAGE } from "../runtime/usage";
import { runPipeline } from "../runtime/pipeline";
import type { ApprovalDecision, ApprovalGate } from "../runtime/tool-executor";
import { withoutReasoning } from "../runtime/transcript";
import { createDb } from "../storage/db";
import { D1SessionIndex } from "../storage/session-index-repo";
import { R2SpillStore } from "../storage/r2-spill-store";
import type { SessionControl } from "../ports/session-control";
import { findTool } from "../tools/registry";
import bundledMigrations from "./migrations/migrations";
import * as schema from "./schema";
import { SessionStore } from "./session-store";
import { learnFromTurn } from "./session-memory";
import type { DecisionInput, LiveTurn, RpcFailure, SessionInit, StartTurnResult } from "./session-types";
import { TraceWriter } from "./trace-writer";
import { setUpTurn } from "./turn-setup";
import { recordUsage } from "./usage-recorder";
import { foldChunks, toStored, unansweredCalls } from "./turn-replay";
import { sseFrame, TurnHub } from "./turn-hub";
import { TurnStore, type TurnRow } from "./turn-store";
import { createApprovalGate } from "./approval-gate";

export type { DecisionInput, RpcFailure, SessionInit, StartTurnResult } from "./session-types";

const DEFAULT_TITLE = "New session";
/** Longest a `watchTurn` long-poll waits before answering "unchanged". */
const MAX_WATCH_MS = 25_000;

function newId(prefix: string): string {
  return formatId(crypto.getRandomValues(new Uint8Array(16)), prefix);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** The session Durable Object. Class name = binding name. */
export class SessionAgent extends Agent<Env> {
  private readonly db: DrizzleSqliteDODatabase<typeof schema>;
  private readonly store: SessionStore;
  private readonly turns: TurnStore;
  private readonly hub = new TurnHub();
  private readonly log: Logger;
  private readonly traces: TraceWriter;
  private live: LiveTurn | undefined;
  private nextIdx = 0;
  /** Long-polls of `watchTurn` waiting for the session's turn state to change. */
  private readonly watchers = new Set<() => void>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    this.store = new SessionStore(this.db);
    this.turns = new TurnStore(this.db);
    this.log = createLogger(consoleSink, { do: "SessionAgent" });
    this.traces = new TraceWriter(env.SPILLS, this.turns, () => this.store.meta()?.id ?? "", this.log);
    void ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, bundledMigrations);
      this.nextIdx = this.turns.nextEventIndex();
      await this.recoverInterruptedTurn();
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
  async snapshotJson(): Promise<string | null> {
    const open = this.turns.openTurn();
    const folded = open ? await foldChunks(this.chunksOf(open.id)) : undefined;
    return this.store.snapshotJson(
      open && folded ? toStored(folded, open.assistantMessageId, { status: open.status }) : undefined,
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

  /** Deletes everything the session holds (a running turn is stopped first). */
  async erase(): Promise<void> {
    this.live?.controller.abort(new Error("session deleted"));
    this.hub.close();
    this.live = undefined;
    await this.ctx.storage.deleteAll();
  }

  /**
   * A finished background task reports into the session: recorded once per id, then reported by a
   * turn of its own — now if the session is idle, else right after the running turn ends.
   */
  async notify(input: { id: string; text: string }): Promise<{ queued: boolean }> {
    const queued = this.turns.insertNotification(input.id, input.text, Date.now());
    this.deliverPending();
    return { queued };
  }

  /** Shows a background task's progress in the running turn (a `data-task` part updated in place). */
  async taskProgress(task: { id: string } & Record<string, unknown>): Promise<{ delivered: boolean }> {
    const live = this.live;
    if (!live) return { delivered: false };
    this.emit(live.id, { type: "data-task", id: task.id, data: task });
    return { delivered: true };
  }

  /** Starts a turn for the user's message; 409-style failure while another turn is open. */
  async startTurn(input: { text: string; userId: string }): Promise<StartTurnResult> {
    const meta = this.store.meta();
    if (!meta) return { ok: false, code: "not_found", message: "session not found" };
    if (this.live || this.turns.openTurn())
      return {
        ok: false,
        code: "conflict",
        message: "a turn is already running in this session; wait for it, cancel it or answer its approval",
      };
    const now = Date.now();
    const turnId = newId("t_");
    const lang = languageOf(input.text);
    const userMessageId = newId("m_");
    const assistantMessageId = newId("m_");
    this.store.appendMessage({ id: userMessageId, role: "user", parts: [{ type: "text", text: input.text }] }, now);
    this.turns.insertTurn({ id: turnId, status: "running", userMessageId, assistantMessageId, lang, startedAt: now });
    this.turns.appendModelMessages(turnId, [{ role: "user", content: input.text }]);
    let title: string | undefined;
    if (meta.title === DEFAULT_TITLE) {
      title = input.text.replace(/\s+/g, " ").trim().slice(0, 40);
      this.store.setTitle(title);
    }
    const stream = this.hub.subscribe([], true);
    this.launch(this.turnRow(turnId), meta.ownerId);
    return title ? { ok: true, stream, title } : { ok: true, stream };
  }

  /** Replays the current (or last) turn's events from index `from`, then follows it live while it runs. */
  async openStream(from: number): Promise<ReadableStream<Uint8Array>> {
    const turn = this.turns.lastTurn();
    if (!turn) return this.hub.subscribe([], false);
    const replay = this.turns.eventsOf(turn.id, from).map((e) => sseFrame(e.idx, e.chunk));
    if (turn.status === "awaiting_approval") return this.hub.subscribe(replay, false, false);
    return this.hub.subscribe(replay, this.live?.id === turn.id);
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

  private wakeWatchers(): void {
    for (const wake of this.watchers) wake(); // each wake removes itself; Set iteration allows that
  }

  /** Stops the open turn at once; `{ cancelled: false }` when nothing runs. */
  async cancel(): Promise<{ cancelled: boolean }> {
    const now = Date.now();
    if (this.live) {
      this.turns.denyPending(this.live.id, now);
      this.live.controller.abort(new Error("cancelled by the user"));
      return { cancelled: true };
    }
    const open = this.turns.openTurn();
    if (!open) return { cancelled: false };
    this.turns.denyPending(open.id, now);
    this.emit(open.id, { type: "abort", reason: "cancelled" });
    await this.endTurn(open.id, {
      status: "cancelled",
      rounds: open.rounds,
      usage: ZERO_USAGE,
      modelId: open.modelId ?? "",
    });
    return { cancelled: true };
  }

  /** Answers a pending approval; the turn continues (resumed from storage if the DO was evicted). */
  async decide(approvalId: string, answer: DecisionInput): Promise<{ ok: true } | RpcFailure> {
    const row = this.turns.approval(approvalId);
    if (!row) return { ok: false, code: "not_found", message: `approval ${approvalId} not found` };
    if (row.status !== "pending")
      return { ok: false, code: "conflict", message: `approval ${approvalId} was already answered (${row.status})` };
    let decision: ApprovalDecision = answer;
    if (answer.decision === "edit") {
      const parsed = findTool(row.toolName)?.spec.input.safeParse(answer.input);
      if (!parsed?.success) {
        const why =
          parsed?.error.issues.map((i) => `${i.path.map(String).join(".") || "(input)"}: ${i.message}`).join("; ") ??
          "unknown tool";
        return { ok: false, code: "invalid_input", message: `edited input is not valid for ${row.toolName}: ${why}` };
      }
      decision = { decision: "edit", input: parsed.data };
    }
    this.turns.decide(approvalId, decision, Date.now());
    if (decision.decision === "always") this.turns.allowAlways(row.toolName);
    const waiter = this.live?.waiters.get(approvalId);
    if (waiter) {
      this.turns.updateTurn(row.turnId, { status: "running" });
      waiter(decision);
      return { ok: true };
    }
    const open = this.turns.openTurn();
    if (!open || open.id !== row.turnId)
      return { ok: false, code: "conflict", message: "the turn of this approval is no longer open" };
    const meta = this.store.meta();
    const chunks = this.chunksOf(open.id);
    const turnMessages = this.turns
      .modelMessages()
      .filter((m) => m.turnId === open.id)
      .map((m) => m.message);
    this.turns.updateTurn(open.id, { status: "running" });
    this.launch(open, meta?.ownerId ?? "", unansweredCalls(turnMessages, chunks));
    return { ok: true };
  }

  private sessionControl(sessionId: string): SessionControl {
    return {
      rename: async (title) => {
        this.store.setTitle(title);
        await new D1SessionIndex(createDb(this.env.DB)).touch(sessionId, Date.now(), title);
        return { title };
      },
    };
  }

  /** Reports the oldest pending notification when no turn is open. */
  private deliverPending(): void {
    const meta = this.store.meta();
    if (!meta || this.live || this.turns.openTurn()) return;
    const next = this.turns.nextNotification();
    if (!next) return;
    const now = Date.now();
    this.turns.markDelivered(next.id, now);
    const turnId = newId("t_");
    const userMessageId = newId("m_");
    const content = `[SYSTEM NOTIFICATION - NOT USER INPUT]\n<task-notification id="${next.id}">\n${next.text}\n</task-notification>\nReport this result to the user briefly.`;
    this.store.appendMessage(
      {
        id: userMessageId,
        role: "user",
        parts: [{ type: "text", text: next.text }],
        metadata: { kind: "notification", taskId: next.id },
      },
      now,
    );
    this.turns.insertTurn({
      id: turnId,
      status: "running",
      userMessageId,
      assistantMessageId: newId("m_"),
      lang: languageOf(next.text),
      startedAt: now,
    });
    this.turns.appendModelMessages(turnId, [{ role: "user", content }]);
    this.launch(this.turnRow(turnId), meta.ownerId);
    this.emit(turnId, { type: "data-notification", data: { taskId: next.id, text: next.text } });
  }

  private turnRow(id: string): TurnRow {
    const row = this.turns.lastTurn();
    if (!row || row.id !== id) throw new Error(`turn ${id} is not the last turn`);
    return row;
  }

  private chunksOf(turnId: string): UIMessageChunk[] {
    return this.turns.eventsOf(turnId).map((e) => JSON.parse(e.chunk) as UIMessageChunk);
  }

  private emit(turnId: string, chunk: UIMessageChunk): void {
    const idx = this.nextIdx++;
    const json = JSON.stringify(chunk);
    this.turns.appendEvent(idx, turnId, json);
    this.hub.broadcast(sseFrame(idx, json));
    this.wakeWatchers();
  }

  /** The model's transcript: messages after the compaction summary (reasoning kept only for this turn). */
  private history(turnId: string): { history: ModelMessage[]; summary?: { text: string; coveredCount: number } } {
    const rows = this.turns.modelMessages();
    const all = rows.map((r) => (r.turnId === turnId ? r.message : (withoutReasoning([r.message])[0] ?? r.message)));
    const meta = this.store.meta();
    const covered = Math.min(meta?.compactedThrough ?? 0, all.length);
    if (!meta?.compactionSummary || covered === 0) return { history: all };
    return { history: all.slice(covered), summary: { text: meta.compactionSummary, coveredCount: covered } };
  }

  private gate(turnId: string, live: LiveTurn): ApprovalGate {
    return createApprovalGate(this.turns, turnId, live, {
      // Waiting for a person may take long: end the open streams (clients reconnect with
      // stream?from=N after answering) and let the DO idle; the approval survives eviction.
      pause: () => {
        this.hub.pause();
        this.wakeWatchers();
        void this.traces.flush(turnId, live);
        this.letSleep(live);
      },
      resume: () => void this.holdAwake(live),
    });
  }

  private launch(turn: TurnRow, userId: string, resume?: ReturnType<typeof unansweredCalls>): void {
    const config = loadConfig(this.env);
    const live: LiveTurn = {
      id: turn.id,
      controller: new AbortController(),
      waiters: new Map(),
      awake: false,
      release: undefined,
      trace: [],
      tracePrefix: resume ? this.traces.earlier(turn.id) : Promise.resolve(""),
    };
    this.live = live;
    void this.holdAwake(live);
    const log = this.log.child({ sessionId: this.store.meta()?.id ?? "", turnId: turn.id });
    // The stream's first byte goes out now; prompt and tool set-up (D1 reads) follow.
    if (!resume) this.emit(turn.id, { type: "start", messageId: turn.assistantMessageId });
    const run = this.runLoop(turn, userId, live, config, log, resume)
      .then((result) => this.endTurn(turn.id, result))
      .finally(() => this.letSleep(live))
      .catch(async (error: unknown) => {
        log.error("turn_crashed", { error });
        this.emit(turn.id, { type: "error", errorText: "internal error: the turn stopped unexpectedly" });
        await this.endTurn(turn.id, {
          status: "error",
          rounds: 0,
          usage: ZERO_USAGE,
          modelId: "",
          error: "internal error: the turn stopped unexpectedly",
        });
      });
    void run;
  }

  /** Sets the turn up from the session's profile and runs it (loop or pipeline). */
  private async runLoop(
    turn: TurnRow,
    userId: string,
    live: LiveTurn,
    config: Config,
    log: Logger,
    resume?: ReturnType<typeof unansweredCalls>,
  ): Promise<TurnResult> {
    const meta = this.store.meta();
    const sessionId = meta?.id ?? "";
    const { req, deps, profile } = await setUpTurn({
      env: this.env,
      config,
      log,
      sessionId,
      userId,
      profile: meta?.profile ?? null,
      turn,
      transcript: this.history(turn.id),
      signal: live.controller.signal,
      resume,
      host: {
        gate: this.gate(turn.id, live),
        emit: (chunk) => this.emit(turn.id, chunk),
        onMessages: (messages) => this.turns.appendModelMessages(turn.id, messages),
        onCompaction: (state) => this.store.setCompaction(state.summary, state.coveredCount),
        trace: this.traces.sink(live),
        now: Date.now,
        newId: () => newId("a_"),
        sleep,
        session: this.sessionControl(sessionId),
        waitUntil: (work) => this.ctx.waitUntil(work),
      },
    });
    return profile.runtime === "pipeline" && !resume ? runPipeline(req, deps, profile.steps) : runTurn(req, deps);
  }

  /** Keeps the DO from idling out while a turn works (agents' alarm heartbeat). */
  private async holdAwake(live: LiveTurn): Promise<void> {
    live.awake = true;
    if (live.release) return;
    const release = await this.keepAlive();
    // The turn may have paused or ended while the heartbeat was being set up.
    if (live.release || !live.awake) release();
    else live.release = release;
  }

  private letSleep(live: LiveTurn): void {
    live.awake = false;
    live.release?.();
    live.release = undefined;
  }

  private async endTurn(turnId: string, result: TurnResult): Promise<void> {
    const now = Date.now();
    const row = this.turns.lastTurn();
    this.turns.updateTurn(turnId, {
      status: result.status,
      rounds: result.rounds,
      modelId: result.modelId || null,
      error: result.error ?? null,
      endedAt: now,
    });
    this.store.addUsage(result.usage);
    const ownerId = this.store.meta()?.ownerId;
    if (ownerId) await recordUsage(createDb(this.env.DB), ownerId, now, result, this.log);
    const folded = await foldChunks(this.chunksOf(turnId));
    if (folded && row) {
      // The diagnosis stays with a failed turn, so a reload still shows what went wrong.
      const metadata = result.error ? { status: result.status, error: result.error } : { status: result.status };
      this.store.appendMessage(toStored(folded, row.assistantMessageId, metadata), now);
    }
    // Long-term memory learns from the stored turn after the answer, never delaying it.
    if (ownerId && row)
      this.ctx.waitUntil(
        learnFromTurn({
          d1: this.env.DB,
          sessionDb: this.db,
          config: loadConfig(this.env),
          log: this.log,
          ownerId,
          sessionId: this.store.meta()?.id ?? "",
          userMessageId: row.userMessageId,
          assistant: folded ? toStored(folded, row.assistantMessageId) : undefined,
          answered: result.status === "done",
        }),
      );
    if (this.live?.id === turnId) {
      await this.traces.flush(turnId, this.live);
      this.live = undefined;
    }
    this.hub.close();
    this.wakeWatchers();
    this.log.info("turn_end", { turnId, status: result.status, rounds: result.rounds, model: result.modelId });
    this.deliverPending();
  }

  /** After eviction or a crash: a turn waiting for approval stays resumable; any other open turn is closed with an error. */
  private async recoverInterruptedTurn(): Promise<void> {
    const open = this.turns.openTurn();
    if (!open) return;
    if (this.turns.pendingApprovals(open.id).length > 0) {
      this.turns.updateTurn(open.id, { status: "awaiting_approval" });
      return;
    }
    const text =
      open.lang === "zh"
        ? "本轮在服务器重启时中断，请重新发送。"
        : "This turn was interrupted by a server restart; please send it again.";
    this.emit(open.id, { type: "error", errorText: text });
    this.emit(open.id, { type: "finish", finishReason: "error" });
    await this.endTurn(open.id, {
      status: "error",
      rounds: open.rounds,
      usage: ZERO_USAGE,
      modelId: open.modelId ?? "",
      error: "interrupted",
    });
  }
}
