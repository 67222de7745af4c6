/**
 * Follows one turn across connections. Every connection (the POST that starts the turn, a resume
 * after reload, a follow-on after an approval, a reconnect after a network loss) feeds the same
 * chunk stream, which the AI SDK's `readUIMessageStream` folds into the assistant message. Event
 * indices drop anything already applied, so a resumed stream never shows an event twice.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { api, ApiError, errorMessage } from "./api-client";
import { readStreamItems } from "./sse-events";
import { afterClose, applyChunk, initialTurnState, markDone, type TurnState } from "./turn-state";

/** The link to the server. */
export type Connection = "connecting" | "open" | "paused" | "reconnecting" | "closed";

/** Callbacks of a runner. */
export interface TurnRunnerEvents {
  message(message: UIMessage): void;
  state(state: TurnState, connection: Connection): void;
  /** The turn is over (finished, cancelled, failed or unreachable). */
  ended(state: TurnState, message: UIMessage | null): void;
}

/** Chunks of a replay burst arriving this soon after the response starts have no live timing. */
const REPLAY_WINDOW_MS = 150;
const MAX_BACKOFF_MS = 8000;

/** One turn of one session, as the page follows it. */
export class TurnRunner {
  private state: TurnState = initialTurnState();
  private connection: Connection = "connecting";
  private controller: ReadableStreamDefaultController<UIMessageChunk> | undefined;
  private readonly stop = new AbortController();
  private last: UIMessage | null = null;
  private attempts = 0;
  private closed = false;
  private readonly folded: Promise<void>;

  constructor(
    private readonly sessionId: string,
    private readonly on: TurnRunnerEvents,
  ) {
    const chunks = new ReadableStream<UIMessageChunk>({
      start: (c) => {
        this.controller = c;
      },
    });
    this.folded = (async () => {
      // Errors are turn state (see turn-state.ts), not a reason to stop folding.
      for await (const message of readUIMessageStream<UIMessage>({ stream: chunks, onError: () => {} })) {
        this.last = message;
        if (!this.stop.signal.aborted) this.on.message(message);
      }
    })();
  }

  /** Starts the turn with the user's text; rejects (nothing started) when the server refuses it. */
  async start(text: string): Promise<void> {
    const body = await api.sendMessage(this.sessionId, text, this.stop.signal);
    void this.pump(body, false);
  }

  /** Picks up the session's open turn after a reload: the whole turn is replayed and rebuilt. */
  resume(): void {
    void this.connect(0, true);
  }

  /** Follows the turn again after an approval was answered or the turn was cancelled while paused. */
  follow(): void {
    if (this.connection === "paused" || this.connection === "closed") void this.connect(this.state.lastIdx + 1, false);
  }

  /** Whether the stream is waiting for a person. */
  get paused(): boolean {
    return this.connection === "paused";
  }

  /** Stops following (the turn goes on on the server). */
  dispose(): void {
    this.closed = true;
    this.stop.abort();
  }

  private setConnection(c: Connection): void {
    this.connection = c;
    this.on.state(this.state, c);
  }

  private async connect(from: number, replay: boolean): Promise<void> {
    if (this.closed) return;
    this.setConnection(this.attempts > 0 ? "reconnecting" : "connecting");
    let body: ReadableStream<Uint8Array<ArrayBuffer>> | null;
    try {
      body = await api.openStream(this.sessionId, from, this.stop.signal);
    } catch (error) {
      if (this.stop.signal.aborted) return;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        this.fail(errorMessage(error));
        return;
      }
      this.retryLater();
      return;
    }
    if (body === null) {
      // The turn ended while we were away and we hold every event of it.
      this.state = markDone(this.state);
      await this.finish();
      return;
    }
    await this.pump(body, replay);
  }

  private async pump(body: ReadableStream<Uint8Array<ArrayBuffer>>, replay: boolean): Promise<void> {
    this.setConnection("open");
    const openedAt = performance.now();
    try {
      for await (const item of readStreamItems(body)) {
        if (this.closed) return;
        this.attempts = 0;
        if (item.kind === "done") {
          this.state = markDone(this.state);
          continue;
        }
        const t = performance.now();
        const now = replay && t - openedAt < REPLAY_WINDOW_MS ? null : t;
        const applied = applyChunk(this.state, item.idx, item.chunk, now);
        if (!applied.fresh) continue;
        this.state = applied.state;
        this.controller?.enqueue(item.chunk);
        this.on.state(this.state, this.connection);
      }
    } catch {
      if (this.closed) return;
      // the connection broke mid-turn: fall through and reconnect
    }
    switch (afterClose(this.state)) {
      case "ended":
        await this.finish();
        return;
      case "paused":
        this.setConnection("paused");
        return;
      case "reconnect":
        this.retryLater();
    }
  }

  private retryLater(): void {
    if (this.closed) return;
    this.attempts++;
    this.setConnection("reconnecting");
    const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(this.attempts, 6));
    const go = () => void this.connect(this.state.lastIdx + 1, false);
    if (!navigator.onLine) {
      window.addEventListener("online", go, { once: true });
      return;
    }
    setTimeout(go, delay);
  }

  private fail(text: string): void {
    this.state = { ...this.state, status: "error", errorText: this.state.errorText ?? text, ended: true };
    void this.finish();
  }

  private async finish(): Promise<void> {
    if (this.closed) return;
    this.controller?.close();
    await this.folded.catch(() => {});
    this.setConnection("closed");
    this.closed = true;
    this.on.ended(this.state, this.last);
  }
}
