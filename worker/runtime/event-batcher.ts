/**
 * A turn's stream events, stored and sent in batches. In the session Durable Object each storage
 * write made in its own event-loop turn is its own commit, and every outgoing byte (an SSE frame, the
 * next model request) waits behind the commits before it (the output gate): one write per model
 * chunk paces a fast stream at one commit per chunk. Here an event is stored and broadcast together
 * with the others of its batch — one commit and one stream write per batch — and never broadcast
 * before it is stored (the client never sees an event the log does not hold).
 *
 * What a reader waits for goes at once, with whatever waits before it: the first delta of a text,
 * reasoning or tool-input part (the first token), a tool call's start and its complete input, a
 * tool's output, an approval request, a notice, an error, the end. A later delta of a part already
 * shown, a part's end, the round's end and its usage wait at most `maxWaitMs`; the marks that show
 * nothing by themselves (model start, step start, a text or reasoning part's start) wait for the next
 * event that goes at once. Anything waiting goes before a read of the log (`flush`).
 */
import type { UIMessageChunk } from "ai";

/** One stream event: its index in the session's stream, its turn and the chunk as JSON. */
export interface StreamEvent {
  idx: number;
  turnId: string;
  chunk: string;
}

/** Longest a waiting event waits (ms): a later delta shows within about a frame. */
export const MAX_EVENT_WAIT_MS = 20;

/**
 * Marks that show nothing by themselves: they go with the next event that goes at once (the round's
 * first output, typically), however long that takes — no timer, so no commit of their own right
 * before the first token.
 */
const UNTIL_NEXT = new Set<string>(["data-model-start", "start-step", "text-start", "reasoning-start"]);

/** Marks and figures that may wait up to `maxWaitMs`: a part's end, the round's end and usage. */
const MAY_WAIT = new Set<string>(["text-end", "reasoning-end", "finish-step", "data-usage"]);

/** The part a delta belongs to, or undefined for a chunk that is not a delta. */
function deltaPart(chunk: UIMessageChunk): string | undefined {
  switch (chunk.type) {
    case "text-delta":
    case "reasoning-delta":
      return `${chunk.type}:${chunk.id}`;
    case "tool-input-delta":
      return `tool:${chunk.toolCallId}`;
    default:
      return undefined;
  }
}

/** Batches events for `write` (store, then broadcast; throws what storing throws). */
export class EventBatcher {
  private pending: StreamEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Parts whose first delta went out (per turn: reset when another turn's event comes). */
  private readonly shown = new Set<string>();
  private turnId: string | undefined;

  constructor(
    private readonly write: (events: readonly StreamEvent[]) => void,
    private readonly onLateError: (error: unknown) => void,
    private readonly maxWaitMs = MAX_EVENT_WAIT_MS,
  ) {}

  /** Adds an event; it goes now (with every waiting one) unless it may wait. */
  push(event: StreamEvent, chunk: UIMessageChunk): void {
    if (event.turnId !== this.turnId) {
      this.flush();
      this.turnId = event.turnId;
      this.shown.clear();
    }
    this.pending.push(event);
    if (UNTIL_NEXT.has(chunk.type)) return;
    if (this.mayWait(chunk)) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        try {
          this.flush();
        } catch (error) {
          this.onLateError(error);
        }
      }, this.maxWaitMs);
      return;
    }
    this.flush();
  }

  /** Stores and sends every waiting event now (before a read of the log, a pause or the end). */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.write(batch);
  }

  /** Drops waiting events unsent (the session is being deleted). */
  discard(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }

  private mayWait(chunk: UIMessageChunk): boolean {
    if (MAY_WAIT.has(chunk.type)) return true;
    const part = deltaPart(chunk);
    if (part === undefined) return false;
    if (this.shown.has(part)) return true;
    this.shown.add(part);
    return false;
  }
}
