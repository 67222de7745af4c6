/**
 * Port: one HTTP request to the public web for `web_fetch`. The edge adapter enforces the destination
 * policy (`lib/url-policy.ts`) on every request and never follows redirects itself, so the handler
 * follows them by hand and each hop is checked again.
 */
import type { Result } from "../lib/result";

/** One answer, read up to the byte cap. */
export interface WebResponse {
  /** The URL requested. */
  url: string;
  status: number;
  /** `content-type` as sent ("" when missing). */
  contentType: string;
  /** `location` of a redirect, unresolved (null when absent). */
  location: string | null;
  /** The body, at most `maxBytes` bytes. */
  body: Uint8Array;
  /** True when the body (or its declared length) went past `maxBytes`; `body` is then partial. */
  overLimit: boolean;
}

/** The part of an `AbortSignal` the port needs (the core ring has no DOM types). */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
}

/** Options of one request. */
export interface WebRequestOptions {
  maxBytes: number;
  timeoutMs: number;
  /** The caller's cancel signal (the turn's, or the MCP request's). */
  signal: CancelSignal;
}

/** Fetches one URL, redirects not followed; refused destinations fail with `forbidden`. */
export interface WebClient {
  fetchOnce(url: string, opts: WebRequestOptions): Promise<Result<WebResponse>>;
}
