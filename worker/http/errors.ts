/**
 * The single error path of the HTTP edge: every failure becomes the CONTRACTS.md envelope
 * `{ error: { code, message } }`. Unexpected errors become a generic 500 plus a log line.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorEnvelope } from "../contracts/errors";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "./app-env";

/** Builds an error envelope response. */
export function errorResponse(c: Context, status: ContentfulStatusCode, body: ErrorEnvelope["error"]): Response {
  return c.json({ error: body } satisfies ErrorEnvelope, status);
}

const CODE_BY_STATUS: Record<number, ErrorEnvelope["error"]["code"]> = {
  400: "invalid_input",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  429: "rate_limited",
};

/** `app.onError`: maps AppError / HTTPException / anything else to the envelope. */
export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof AppError) {
    if (error.status >= 500)
      c.var.log?.error("request_failed", { code: error.code, internal: error.internalMessage, error });
    return errorResponse(c, error.status as ContentfulStatusCode, {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    });
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return errorResponse(c, status, {
      code: CODE_BY_STATUS[status] ?? "internal",
      message: error.message || "request refused",
    });
  }
  c.var.log?.error("unhandled_error", { error });
  return errorResponse(c, 500, { code: "internal", message: "internal error" });
}
