/** Shapes of the session Durable Object's RPC surface. */
import type { DecisionAnswer, TurnRefusal } from "../runtime/turn-inputs";

/** What the worker passes when it creates a session. */
export interface SessionInit {
  id: string;
  ownerId: string;
  title: string;
  profile: string | null;
  now: number;
}

/** An RPC failure the route maps to the error envelope. */
export type RpcFailure = TurnRefusal;

/** `startTurn` answer: the live stream (and the new title when the first message named the session). */
export type StartTurnResult =
  | { ok: true; stream: ReadableStream<Uint8Array>; title?: string }
  | RpcFailure
  | { ok: false; code: "rate_limited"; message: string; retryAfterS: number };

/** A user's answer to a pending approval. */
export type DecisionInput = DecisionAnswer;
