/**
 * AppError: an expected failure at the edge, carrying the HTTP status and a message safe to show.
 * `internalMessage` is for logs only (never sent to clients).
 */
import type { ErrorCode } from "../contracts/errors";
import type { ErrorData } from "./result";

/** An error the edge turns into the error envelope with `status`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly internalMessage: string | undefined;

  constructor(
    code: ErrorCode,
    status: number,
    message: string,
    opts: { details?: Record<string, unknown>; internalMessage?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.status = status;
    this.details = opts.details;
    this.internalMessage = opts.internalMessage;
  }
}

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_input: 400,
  insufficient_data: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  upstream_unavailable: 502,
};

/** Lifts a `Result` error into an AppError with the status its code implies. */
export function toAppError(error: ErrorData): AppError {
  return new AppError(
    error.code,
    STATUS_BY_CODE[error.code],
    error.message,
    error.details ? { details: error.details } : {},
  );
}
