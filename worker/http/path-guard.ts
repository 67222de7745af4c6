/**
 * The first check on every request: a path with a malformed percent-escape (`%`, `%E0%A4%A`, bytes
 * that are not UTF-8) or an absurd length is refused with the error envelope before any route decodes
 * it. Routes then see only well-formed paths and validate their parameters (`http/params.ts`).
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { errorResponse } from "./errors";

/** Longest request path accepted (characters, before decoding). */
export const MAX_PATH_CHARS = 2048;

/** Why `rawPath` is refused, or null when it is well formed. */
export function pathProblem(rawPath: string): string | null {
  if (rawPath.length > MAX_PATH_CHARS) return `path is longer than ${MAX_PATH_CHARS} characters`;
  if (/%(?![0-9A-Fa-f]{2})/.test(rawPath)) return "path has a malformed percent-escape";
  try {
    decodeURIComponent(rawPath);
  } catch {
    return "path has a percent-escape that is not UTF-8";
  }
  return null;
}

/** The middleware. */
export const pathGuard = createMiddleware<AppEnv>(async (c, next) => {
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("://") + 3);
  const end = url.search(/[?#]/);
  const raw = start === -1 ? "/" : url.slice(start, end === -1 ? undefined : end);
  const problem = pathProblem(raw);
  if (problem) return errorResponse(c, 400, { code: "invalid_input", message: problem });
  await next();
});
