/**
 * Error codes and the error envelope every HTTP error uses (CONTRACTS.md):
 * `{ "error": { "code": "...", "message": "..." } }`.
 */
import { z } from "zod";

/** Stable machine-readable error codes shared by HTTP, tools and MCP. */
export const ErrorCode = z.enum([
  "invalid_input",
  "not_found",
  "conflict",
  "payload_too_large",
  "insufficient_data",
  "upstream_unavailable",
  "rate_limited",
  "unauthorized",
  "forbidden",
  "internal",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The JSON body of every error response. */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** A validation issue as zod reports it. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** Issues as one line the model or a person can read: `path: message; …` (`(input)` for the root). */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join(".") : "(input)"}: ${i.message}`).join("; ");
}
