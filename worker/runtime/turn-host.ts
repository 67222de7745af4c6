/**
 * The controller's view of its host (the session Durable Object): what it hands over to set a turn
 * up, and what the host supplies — streaming, keep-alive, traces, set-up over the bindings and the
 * after-turn work (usage, audit seal, memory).
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import type { StoredUIMessage } from "../contracts/api";
import type { Logger } from "../lib/log";
import type { LiveTurn } from "./live-turn";
import type { EffectiveProfile } from "./profiles/resolve";
import type { TurnRecord } from "./session-log";
import type { TraceEvent } from "./trace";
import type { unansweredCalls } from "./turn-replay";
import type { TurnDeps, TurnRequest, TurnResult } from "./turn-types";

/** The calls a resumed turn still has to answer. */
export type ResumePoint = ReturnType<typeof unansweredCalls>;

/** What the host hands the controller to set a turn up. */
export interface TurnSetupRequest {
  turn: TurnRecord;
  sessionId: string;
  userId: string;
  profile: string | null;
  transcript: { history: ModelMessage[]; summary?: { text: string; coveredCount: number } };
  signal: AbortSignal;
  resume: ResumePoint | undefined;
  log: Logger;
  /** The controller's side of the turn: storage and streaming. */
  hooks: Pick<TurnDeps, "gate" | "emit" | "onMessages" | "onCompaction" | "trace">;
}

/** What the host supplies: streaming, keep-alive, tracing, turn set-up and the after-turn work. */
export interface TurnHost {
  log: Logger;
  now(): number;
  newId(prefix: string): string;
  /** Sends stored events, in index order, to every connected client (one stream write per batch). */
  broadcast(events: readonly { idx: number; chunk: string }[]): void;
  /** A stream following the turn live from its next event. */
  subscribe(): ReadableStream<Uint8Array>;
  /** Ends the open streams while the turn waits for a person (clients reconnect after answering). */
  pauseStreams(): void;
  /** Ends the open streams (the turn ended). */
  closeStreams(): void;
  /** Holds the host awake while a turn works; the returned function releases it. */
  keepAlive(): Promise<() => void>;
  waitUntil(work: Promise<unknown>): void;
  traces: {
    earlier(turnId: string): Promise<string>;
    sink(live: LiveTurn): (event: TraceEvent) => void;
    flush(turnId: string, live: LiveTurn): Promise<void>;
  };
  /** Builds the turn's request, ports and profile. */
  setUp(o: TurnSetupRequest): Promise<{ req: TurnRequest; deps: TurnDeps; profile: EffectiveProfile }>;
  /** Records the turn's usage for the owner (awaited before the streams close; it never rejects). */
  recordUsage(ownerId: string, now: number, result: TurnResult): Promise<void>;
  /**
   * Seals the ended turn into the session's audit chain (run in the background, after the answer; the
   * host keeps the chain's order). `chunks` are the turn's stream events.
   */
  seal(o: {
    sessionId: string;
    ownerId: string;
    profile: string | null;
    turnId: string;
    userMessageId: string;
    endedAt: number;
    result: TurnResult;
    chunks: readonly UIMessageChunk[];
  }): Promise<void>;
  /** Learns from the stored turn (run in the background, after the answer). */
  learn(o: {
    ownerId: string;
    sessionId: string;
    userMessageId: string;
    assistant: StoredUIMessage | undefined;
    answered: boolean;
  }): Promise<void>;
}
