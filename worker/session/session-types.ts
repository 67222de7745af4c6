/** Shapes of the session Durable Object's RPC surface and of a turn while it runs in memory. */
import type { ApprovalDecision } from "../runtime/tool-executor";

/** What the worker passes when it creates a session. */
export interface SessionInit {
  id: string;
  ownerId: string;
  title: string;
  profile: string | null;
  now: number;
}

/** An RPC failure the route maps to the error envelope. */
export interface RpcFailure {
  ok: false;
  code: "not_found" | "conflict" | "invalid_input";
  message: string;
}

/** `startTurn` answer: the live stream (and the new title when the first message named the session). */
export type StartTurnResult = { ok: true; stream: ReadableStream<Uint8Array>; title?: string } | RpcFailure;

/** A user's answer to a pending approval. */
export type DecisionInput =
  | { decision: "allow" | "always" }
  | { decision: "edit"; input: unknown }
  | { decision: "deny"; reason?: string };

/** A turn running in this DO instance. */
export interface LiveTurn {
  id: string;
  controller: AbortController;
  waiters: Map<string, (decision: ApprovalDecision) => void>;
  /** Whether the turn is working (true) or waiting for a person (false). */
  awake: boolean;
  /** Releases the keep-alive heartbeat (held while the turn works, not while it waits for a person). */
  release: (() => void) | undefined;
  /** Trace lines of this run (redacted JSON), after what an earlier run of the same turn wrote. */
  trace: string[];
  tracePrefix: Promise<string>;
}
