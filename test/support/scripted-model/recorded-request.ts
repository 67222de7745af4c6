/**
 * What the scripted model records of each chat request it receives (test support), for tests to
 * read back through `requests()` or `GET /__requests`.
 */
import type { ChatRequestBody } from "./openai-wire.ts";

/** What the server did with a recorded request. */
export type RequestOutcome =
  | "reply"
  | "error"
  | "stall"
  | "malformed"
  | "drop"
  | "unauthorized"
  | "exhausted"
  | "bad-request";

/** A chat-completions request the server received. */
export interface RecordedRequest {
  /** 1-based arrival order across all keys. */
  seq: number;
  /** Which wire protocol the request spoke (`/v1/chat/completions` or `/v1/messages`). */
  protocol: "openai" | "anthropic";
  /** The queue key it matched, or `null` for the default queue. */
  key: string | null;
  method: string;
  path: string;
  /** Lower-cased request headers (e.g. `authorization`, `content-type`). */
  headers: Record<string, string>;
  /** Parsed JSON body, or `null` if it wasn't a valid chat request. */
  body: ChatRequestBody | null;
  /** The raw body text. */
  rawBody: string;
  /** How the server answered. */
  outcome: RequestOutcome;
  /** Becomes true if the client hung up before the response finished (live-updated; not set by drops or `close()`). */
  clientAborted: boolean;
}
