/**
 * Cross-origin policy of the API: closed by default. Only origins in `CORS_ORIGINS` (e.g. a Pages
 * deployment of the reading room) get CORS headers; a state-changing request from any other foreign
 * origin is refused outright (403), since a browser may send a "simple" POST cross-site without a
 * preflight — in `local` mode, with no login, that would otherwise be a CSRF hole.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "./app-env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function allowedOrigin(origin: string, self: string, list: readonly string[]): boolean {
  return origin === self || list.includes(origin) || list.includes("*");
}

function allowListWith(allowHeaders: string[], exposeHeaders: string[]): MiddlewareHandler {
  return cors({
    origin: (origin, c) => {
      const list = (c.var as AppEnv["Variables"]).config.corsOrigins;
      return list.includes(origin) || list.includes("*") ? origin : null;
    },
    allowHeaders,
    exposeHeaders,
    maxAge: 600,
  });
}

function guardWith(allowList: MiddlewareHandler): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header("origin");
    const self = new URL(c.req.url).origin;
    if (origin && origin !== self && !SAFE_METHODS.has(c.req.method)) {
      if (!allowedOrigin(origin, self, c.var.config.corsOrigins)) {
        throw new AppError("forbidden", 403, `requests from ${origin} are not allowed (CORS_ORIGINS)`);
      }
    }
    if (origin && origin !== self && c.var.config.corsOrigins.length > 0) return allowList(c, next);
    await next();
  });
}

/** The API's CORS allow-list and foreign-origin write guard. */
export const crossOrigin: MiddlewareHandler<AppEnv> = guardWith(
  allowListWith(["authorization", "content-type", "last-event-id"], ["retry-after", "x-vercel-ai-ui-message-stream"]),
);

/**
 * The same policy for `/mcp` (browser-based MCP clients, e.g. the MCP Inspector): a preflight from
 * an allow-listed origin is answered here, before identity, with the Streamable HTTP headers.
 */
export const mcpCrossOrigin: MiddlewareHandler<AppEnv> = guardWith(
  allowListWith(
    ["authorization", "content-type", "accept", "last-event-id", "mcp-protocol-version", "mcp-session-id"],
    ["mcp-session-id", "mcp-protocol-version", "www-authenticate"],
  ),
);
