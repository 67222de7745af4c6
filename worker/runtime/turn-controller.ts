/**
 * The turn lifecycle of a session, written once: open a turn (for the user's message or a task's
 * notification), run it (loop or pipeline), let a person decide its approvals, cancel it, end it and
 * recover it after eviction. The host (the session Durable Object) supplies storage, streaming and
 * keep-alive through `TurnHost` (turn-host.ts); the policy lives here. What opens or steers a turn
 * before it acts — titles, notification prompts, approval answers — is turn-inputs.ts.
 */
import type { UIMessageChunk } from "ai";
import type { StoredUIMessage } from "../contracts/api";
import type { Logger } from "../lib/log";
import { createApprovalGate } from "./approval-gate";
import { languageOf, turnLanguage, type Lang } from "./errors";
import type { LiveTurn } from "./live-turn";
import { runPipeline } from "./pipeline";
import { runTurn } from "./run-turn";
import type { SessionLog, TurnRecord } from "./session-log";
import { EventBatcher } from "./event-batcher";
import type { ApprovalGate } from "./tool-executor";
import { turnTranscript } from "./transcript";
import type { ResumePoint, TurnHost } from "./turn-host";
import {
  checkDecision,
  DEFAULT_TITLE,
  notificationPrompt,
  titleFrom,
  type DecisionAnswer,
  type TurnRefusal,
} from "./turn-inputs";
import { foldChunks, toStored, unansweredCalls } from "./turn-replay";
import type { TurnResult } from "./turn-types";
import { ZERO_USAGE } from "./usage";
import { dataPart, type TaskData } from "../contracts/stream-parts";

/** A user message or a notification to open a turn for. */
interface TurnOpening {
  /** The UI message shown for it. */
  shown: StoredUIMessage;
  /** What the model reads. */
  content: string;
  lang: Lang;
}

/** One session's turns. */
export class TurnController {
  private live: LiveTurn | undefined;
  private nextIdx = 0;
  /** Stream events are stored and broadcast in batches (event-batcher.ts): one commit per burst. */
  private readonly events: EventBatcher;

  constructor(
    private readonly log: SessionLog,
    private readonly host: TurnHost,
  ) {
    this.events = new EventBatcher(
      (batch) => {
        this.log.appendEvents(batch);
        this.host.broadcast(batch);
      },
      (error) => this.host.log.error("stream_events_unwritten", { error }),
    );
  }

  /** At start-up: continue the event index; a turn waiting for approval stays resumable, any other open turn is closed with an error. */
  async recover(): Promise<void> {
    this.nextIdx = this.log.nextEventIndex();
    const open = this.log.openTurn();
    if (!open) return;
    if (this.log.pendingApprovals(open.id).length > 0) {
      this.log.updateTurn(open.id, { status: "awaiting_approval" });
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

  /** The id of the turn running in this instance, if any. */
  liveTurnId(): string | undefined {
    return this.live?.id;
  }

  /** Stops the running turn without ending it in storage (the session is being deleted). */
  abandon(): void {
    this.events.discard();
    this.live?.controller.abort(new Error("session deleted"));
    this.live = undefined;
  }

  /** Starts a turn for the user's message; refused while another turn is open. */
  start(input: {
    text: string;
    lang?: Lang;
  }): { ok: true; stream: ReadableStream<Uint8Array>; title?: string } | TurnRefusal {
    const meta = this.log.meta();
    if (!meta || meta.deletedAt) return { ok: false, code: "not_found", message: "session not found" };
    if (this.busy())
      return {
        ok: false,
        code: "conflict",
        message: "a turn is already running in this session; wait for it, cancel it or answer its approval",
      };
    const title = meta.title === DEFAULT_TITLE ? titleFrom(input.text) : undefined;
    const opened = this.open({
      shown: { id: this.host.newId("m_"), role: "user", parts: [{ type: "text", text: input.text }] },
      content: input.text,
      lang: turnLanguage(input.text, input.lang),
    });
    if (title !== undefined) this.log.setTitle(title);
    const stream = this.host.subscribe();
    this.launch(opened, meta.ownerId);
    return title ? { ok: true, stream, title } : { ok: true, stream };
  }

  /** Records a task's notification once per id, then reports it in a turn of its own when idle. */
  notify(input: { id: string; text: string }): { queued: boolean } {
    const queued = this.log.insertNotification(input.id, input.text, this.host.now());
    this.deliverPending();
    return { queued };
  }

  /** Shows a background task's progress in the running turn (a `data-task` part updated in place). */
  progress(task: TaskData): { delivered: boolean } {
    const live = this.live;
    if (!live) return { delivered: false };
    this.emit(live.id, dataPart("data-task", task, task.id));
    return { delivered: true };
  }

  /** Stops the open turn at once; `{ cancelled: false }` when nothing runs. */
  async cancel(): Promise<{ cancelled: boolean }> {
    const now = this.host.now();
    if (this.live) {
      this.log.denyPending(this.live.id, now);
      this.live.controller.abort(new Error("cancelled by the user"));
      return { cancelled: true };
    }
    const open = this.log.openTurn();
    if (!open) return { cancelled: false };
    this.log.denyPending(open.id, now);
    this.emit(open.id, { type: "abort", reason: "cancelled" });
    await this.endTurn(open.id, {
      status: "cancelled",
      rounds: open.rounds,
      usage: ZERO_USAGE,
      modelId: open.modelId ?? "",
    });
    return { cancelled: true };
  }

  /** Answers a pending approval; the turn continues (resumed from storage if the host was evicted). */
  decide(approvalId: string, answer: DecisionAnswer, by?: string): { ok: true } | TurnRefusal {
    const row = this.log.approval(approvalId);
    if (!row) return { ok: false, code: "not_found", message: `approval ${approvalId} not found` };
    if (row.status !== "pending")
      return { ok: false, code: "conflict", message: `approval ${approvalId} was already answered (${row.status})` };
    const decision = checkDecision(row.toolName, answer);
    if ("ok" in decision) return decision;
    this.log.decide(approvalId, decision, this.host.now(), by ?? this.log.meta()?.ownerId ?? null);
    if (decision.decision === "always") this.log.allowAlways(row.toolName);
    const waiter = this.live?.waiters.get(approvalId);
    if (waiter) {
      this.log.updateTurn(row.turnId, { status: "running" });
      waiter(decision);
      return { ok: true };
    }
    const open = this.log.openTurn();
    if (!open || open.id !== row.turnId)
      return { ok: false, code: "conflict", message: "the turn of this approval is no longer open" };
    const turnMessages = this.log
      .modelMessages()
      .filter((m) => m.turnId === open.id)
      .map((m) => m.message);
    this.log.updateTurn(open.id, { status: "running" });
    this.launch(open, this.log.meta()?.ownerId ?? "", unansweredCalls(turnMessages, this.chunksOf(open.id)));
    return { ok: true };
  }

  /** Stores and sends the events still waiting in the batch: call before reading the event log. */
  flushEvents(): void {
    this.events.flush();
  }

  /** The stored events of a turn, parsed (waiting ones stored first). */
  chunksOf(turnId: string): UIMessageChunk[] {
    this.events.flush();
    return this.log.eventsOf(turnId).map((e) => JSON.parse(e.chunk) as UIMessageChunk);
  }

  private busy(): boolean {
    return this.live !== undefined || this.log.openTurn() !== undefined;
  }

  /** Opens a turn: the shown message, the turn row and the model's first message — one place for both kinds. */
  private open(o: TurnOpening): TurnRecord {
    const now = this.host.now();
    const turnId = this.host.newId("t_");
    this.log.appendMessage(o.shown, now);
    this.log.insertTurn({
      id: turnId,
      status: "running",
      userMessageId: o.shown.id,
      assistantMessageId: this.host.newId("m_"),
      lang: o.lang,
      startedAt: now,
    });
    this.log.appendModelMessages(turnId, [{ role: "user", content: o.content }]);
    const row = this.log.lastTurn();
    if (!row || row.id !== turnId) throw new Error(`turn ${turnId} is not the last turn`);
    return row;
  }

  /** Reports the oldest pending notification when no turn is open. */
  private deliverPending(): void {
    const meta = this.log.meta();
    if (!meta || meta.deletedAt || this.busy()) return;
    const next = this.log.nextNotification();
    if (!next) return;
    this.log.markDelivered(next.id, this.host.now());
    const turn = this.open({
      shown: {
        id: this.host.newId("m_"),
        role: "user",
        parts: [{ type: "text", text: next.text }],
        metadata: { kind: "notification", taskId: next.id },
      },
      content: notificationPrompt(next.id, next.text),
      // The report is for the person: in the conversation's language (the last turn's), not the
      // language of the job's own text.
      lang: this.log.lastTurn()?.lang ?? languageOf(next.text),
    });
    this.launch(turn, meta.ownerId);
    this.emit(turn.id, dataPart("data-notification", { taskId: next.id, text: next.text }));
  }

  private emit(turnId: string, chunk: UIMessageChunk): void {
    this.events.push({ idx: this.nextIdx++, turnId, chunk: JSON.stringify(chunk) }, chunk);
  }

  private gate(turnId: string, live: LiveTurn): ApprovalGate {
    return createApprovalGate(this.log, turnId, live, {
      // Waiting for a person may take long: end the open streams (clients reconnect with
      // stream?from=N after answering) and let the host idle; the approval survives eviction.
      pause: () => {
        this.events.flush();
        this.host.pauseStreams();
        void this.host.traces.flush(turnId, live);
        this.letSleep(live);
      },
      resume: () => void this.holdAwake(live),
      now: () => this.host.now(),
    });
  }

  private launch(turn: TurnRecord, userId: string, resume?: ResumePoint): void {
    const live: LiveTurn = {
      id: turn.id,
      controller: new AbortController(),
      waiters: new Map(),
      awake: false,
      release: undefined,
      trace: [],
      tracePrefix: resume ? this.host.traces.earlier(turn.id) : Promise.resolve(""),
    };
    this.live = live;
    void this.holdAwake(live);
    const log = this.host.log.child({ sessionId: this.log.meta()?.id ?? "", turnId: turn.id });
    // The stream's first byte goes out now; prompt and tool set-up (D1 reads) follow.
    if (!resume) this.emit(turn.id, { type: "start", messageId: turn.assistantMessageId });
    const run = this.run(turn, userId, live, log, resume)
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
  private async run(
    turn: TurnRecord,
    userId: string,
    live: LiveTurn,
    log: Logger,
    resume: ResumePoint | undefined,
  ): Promise<TurnResult> {
    const meta = this.log.meta();
    const { req, deps, profile } = await this.host.setUp({
      turn,
      sessionId: meta?.id ?? "",
      userId,
      profile: meta?.profile ?? null,
      transcript: turnTranscript(this.log, turn.id),
      signal: live.controller.signal,
      resume,
      log,
      hooks: {
        gate: this.gate(turn.id, live),
        emit: (chunk) => this.emit(turn.id, chunk),
        onMessages: (messages) => this.log.appendModelMessages(turn.id, messages),
        onCompaction: (state) => this.log.setCompaction(state.summary, state.coveredCount),
        trace: this.host.traces.sink(live),
      },
    });
    return profile.runtime === "pipeline" && !resume ? runPipeline(req, deps, profile.steps) : runTurn(req, deps);
  }

  /** Keeps the host from idling out while a turn works. */
  private async holdAwake(live: LiveTurn): Promise<void> {
    live.awake = true;
    if (live.release) return;
    const release = await this.host.keepAlive();
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
    const now = this.host.now();
    const row = this.log.lastTurn();
    this.log.updateTurn(turnId, {
      status: result.status,
      rounds: result.rounds,
      modelId: result.modelId || null,
      error: result.error ?? null,
      endedAt: now,
    });
    this.log.addUsage(result.usage);
    const ownerId = this.log.meta()?.ownerId;
    // The owner's usage (D1) is written while the answer is folded and stored; the streams close after
    // both, so a read of /api/usage after the answer is current. The answer is stored before the
    // usage write returns: its commit overlaps the D1 round trip instead of following it.
    const usage = ownerId ? this.host.recordUsage(ownerId, now, result) : Promise.resolve();
    const chunks = this.chunksOf(turnId); // read and parsed once: the fold and the audit seal share them
    const folded = await foldChunks(chunks);
    if (folded && row) {
      // The diagnosis stays with a failed turn, so a reload still shows what went wrong.
      const metadata = result.error ? { status: result.status, error: result.error } : { status: result.status };
      this.log.appendMessage(toStored(folded, row.assistantMessageId, metadata), now);
    }
    await usage;
    if (this.live?.id === turnId) {
      // The trace goes to R2 off the answer's path; a read of it waits for the write (TraceWriter).
      this.host.waitUntil(this.host.traces.flush(turnId, this.live));
      this.live = undefined;
    }
    this.events.flush(); // the fold above read them all; anything emitted since goes before the close
    this.host.closeStreams();
    // After-answer work, queued in the same tick the streams close (no await in between), so a read
    // that follows the answer still finds the audit write queued (reads wait for it).
    const meta = this.log.meta();
    if (meta && row)
      this.host.waitUntil(
        this.host.seal({
          sessionId: meta.id,
          ownerId: meta.ownerId,
          profile: meta.profile,
          turnId,
          userMessageId: row.userMessageId,
          endedAt: now,
          result,
          chunks,
        }),
      );
    // Long-term memory learns from the stored turn after the answer, never delaying it.
    if (ownerId && row)
      this.host.waitUntil(
        this.host.learn({
          ownerId,
          sessionId: meta?.id ?? "",
          userMessageId: row.userMessageId,
          assistant: folded ? toStored(folded, row.assistantMessageId) : undefined,
          answered: result.status === "done",
        }),
      );
    this.host.log.info("turn_end", { turnId, status: result.status, rounds: result.rounds, model: result.modelId });
    this.deliverPending();
  }
}
