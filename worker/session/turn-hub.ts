/**
 * TurnHub: fans a turn's events out to every connected client as SSE (`id: <index>` per event, then
 * `data: [DONE]`). Subscribing replays stored events first, synchronously, so no event is missed or
 * doubled between replay and live. A client that goes away is dropped; the turn goes on.
 */

const encoder = new TextEncoder();

/** Formats one stored event as an SSE frame. */
export function sseFrame(idx: number, chunk: string): string {
  return `id: ${idx}\ndata: ${chunk}\n\n`;
}

/** The closing frame of the AI SDK UI message stream protocol. */
export const SSE_DONE = "data: [DONE]\n\n";

/** Live subscribers of the running turn. */
export class TurnHub {
  private readonly subscribers = new Set<WritableStreamDefaultWriter<Uint8Array>>();

  /**
   * Opens a stream: `replay` frames first, then live frames until `close()`; when not `live` it ends
   * after the replay — with `[DONE]` if the turn is over, without it if the turn is paused.
   */
  subscribe(replay: readonly string[], live: boolean, finished = true): ReadableStream<Uint8Array> {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    for (const frame of replay) this.write(writer, frame);
    if (live) {
      this.subscribers.add(writer);
      // A client that goes away cancels the readable, which errors the writable: drop it at once.
      writer.closed.catch(() => this.subscribers.delete(writer));
    } else {
      if (finished) this.write(writer, SSE_DONE);
      writer.close().catch(() => {});
    }
    return readable;
  }

  /** Sends a frame to every live subscriber. */
  broadcast(frame: string): void {
    for (const writer of this.subscribers) this.write(writer, frame);
  }

  /** Ends every live stream with `[DONE]`. */
  close(): void {
    for (const writer of this.subscribers) {
      this.write(writer, SSE_DONE);
      writer.close().catch(() => {});
    }
    this.subscribers.clear();
  }

  /**
   * Ends every live stream without `[DONE]`: the turn is paused (waiting for a person's approval),
   * not finished. Clients follow it again with `stream?from=N` after answering.
   */
  pause(): void {
    for (const writer of this.subscribers) writer.close().catch(() => {});
    this.subscribers.clear();
  }

  /** Number of connected clients. */
  get size(): number {
    return this.subscribers.size;
  }

  private write(writer: WritableStreamDefaultWriter<Uint8Array>, frame: string): void {
    writer.write(encoder.encode(frame)).catch(() => {
      this.subscribers.delete(writer);
    });
  }
}
