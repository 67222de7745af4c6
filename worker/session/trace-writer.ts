/** Turn traces: redacted JSONL per turn in R2, indexed in the session DO. */
import { redactSecrets } from "../lib/redact";
import type { Logger } from "../lib/log";
import type { TraceEvent } from "../runtime/trace";
import { R2SpillStore } from "../storage/r2-spill-store";
import type { LiveTurn } from "../runtime/live-turn";
import type { TurnStore } from "./turn-store";

/** Writes and reads a session's traces. */
export class TraceWriter {
  private readonly r2: R2SpillStore;
  /** Writes under way, by turn: a read of that turn's trace waits for its write. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    bucket: R2Bucket,
    private readonly turns: TurnStore,
    private readonly sessionId: () => string,
    private readonly log: Logger,
  ) {
    this.r2 = new R2SpillStore(bucket);
  }

  /** The R2 key of a turn's trace. */
  key(turnId: string): string {
    return `traces/${this.sessionId() || "unknown"}/${turnId}.jsonl`;
  }

  /** What an earlier run of this turn wrote (a turn resumed after eviction appends to it). */
  earlier(turnId: string): Promise<string> {
    return this.r2.get(this.key(turnId)).then((t) => t ?? "");
  }

  /** A sink adding redacted lines to the live turn's buffer. */
  sink(live: LiveTurn): (event: TraceEvent) => void {
    return (event) =>
      live.trace.push(JSON.stringify({ at: new Date().toISOString(), ...(redactSecrets(event) as object) }));
  }

  /**
   * Writes the turn's trace so far to R2 and indexes it (failures are logged, never fatal). Writes of
   * one turn run in order; `read` waits for the last one queued.
   */
  flush(turnId: string, live: LiveTurn): Promise<void> {
    const previous = this.writing.get(turnId) ?? Promise.resolve();
    const write = previous.then(() => this.write(turnId, live));
    this.writing.set(turnId, write);
    void write.then(() => {
      if (this.writing.get(turnId) === write) this.writing.delete(turnId);
    });
    return write;
  }

  private async write(turnId: string, live: LiveTurn): Promise<void> {
    try {
      const text = (await live.tracePrefix) + live.trace.map((l) => `${l}\n`).join("");
      const key = this.key(turnId);
      await this.r2.put(key, text);
      this.turns.indexTrace(turnId, key, text.split("\n").length - 1, text.length, Date.now());
    } catch (error) {
      this.log.error("trace_write_failed", { turnId, error });
    }
  }

  /** A turn's trace, or null when none was written. */
  async read(turnId: string): Promise<string | null> {
    await this.writing.get(turnId);
    return this.turns.traceOf(turnId) ? this.r2.get(this.key(turnId)) : null;
  }
}
