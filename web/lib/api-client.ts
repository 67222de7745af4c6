/**
 * The one HTTP client of the reading room. Every response is parsed with the worker's contract
 * schemas; errors surface as ApiError carrying the envelope's code and message.
 */
import { Health } from "@contracts/api";
import { ErrorEnvelope } from "@contracts/errors";
import type { z } from "zod";

/** Base URL of the API: same origin when served by the worker, or VITE_API_BASE_URL on Pages. */
const BASE = (import.meta.env.VITE_API_BASE_URL ?? "").replace(/\/+$/, "");

/** A failed API call, with the server's error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function request<S extends z.ZodType>(path: string, schema: S, init?: RequestInit): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}`, init);
  } catch (error) {
    throw new ApiError(0, "network", `cannot reach the server: ${String(error)}`);
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const envelope = ErrorEnvelope.safeParse(body);
    if (envelope.success) throw new ApiError(res.status, envelope.data.error.code, envelope.data.error.message);
    throw new ApiError(res.status, "http_error", `HTTP ${res.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(res.status, "bad_response", `unexpected response from ${path}`);
  return parsed.data;
}

/** Typed calls to the worker's API. */
export const api = {
  health: () => request("/api/health", Health),
};
