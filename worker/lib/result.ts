/**
 * Result: the one way core and application code report expected failures
 * (too few bars, unknown symbol, upstream down). Throw only for bugs.
 */
import type { ErrorCode } from "../contracts/errors";

/** What an expected failure carries: a stable code and a message safe to show a person. */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  /** Optional structured detail (e.g. the failing field). JSON-safe. */
  details?: Record<string, unknown>;
}

/** Success or an expected failure. */
export type Result<T, E = ErrorData> = { ok: true; value: T } | { ok: false; error: E };

/** Wraps a value as success. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** Wraps an expected failure. */
export function err(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: ErrorData } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}

/** Marks a branch the type system proves unreachable; throws if reached at run time. */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
