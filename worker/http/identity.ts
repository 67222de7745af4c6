/**
 * Who is calling (`AUTH_MODE`). `local`: one owner, no login, loopback clients only (on Cloudflare
 * every request carries `CF-Connecting-IP`). `token`: `Authorization: Bearer <API token>`, looked up
 * by its SHA-256. `access`: the Cloudflare Access JWT, verified against the team's key set. In every
 * mode a share-link token is refused as an identity: share links only ever read.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { LOCAL_OWNER } from "../contracts/identity";
import { AppError } from "../lib/app-error";
import { isLoopback } from "../lib/net";
import { D1ApiTokens } from "../storage/api-token-repo";
import { accessJwtOf, createAccessVerifier, type AccessVerifier } from "./access-jwt";
import type { AppEnv } from "./app-env";
import { bearerOf, SHARE_TOKEN_PREFIX, sha256Hex } from "./secrets";

/** The single owner of a `local`-mode installation (declared in contracts/identity.ts). */
export { LOCAL_OWNER };

/** Runs `work` after the response when the runtime allows it, else before answering. */
export async function afterResponse(c: Context, work: Promise<unknown>): Promise<void> {
  let ctx: ExecutionContext | undefined;
  try {
    ctx = c.executionCtx as ExecutionContext;
  } catch {
    ctx = undefined;
  }
  if (ctx) ctx.waitUntil(work);
  else await work;
}

/** In `local` mode, refuses a client that is not on loopback (any mode else: no-op). */
export function assertLocalClient(c: Context<AppEnv>): void {
  if (c.var.config.authMode !== "local") return;
  const client = c.req.header("cf-connecting-ip");
  if (client !== undefined && !isLoopback(client)) {
    throw new AppError(
      "forbidden",
      403,
      "AUTH_MODE=local serves loopback clients only; configure AUTH_MODE=token or access",
    );
  }
}

function unauthorized(c: Context, message: string, scheme: string): AppError {
  c.header("www-authenticate", scheme);
  return new AppError("unauthorized", 401, message);
}

async function byToken(c: Context<AppEnv>): Promise<{ userId: string; tokenId: string }> {
  const token = bearerOf(c.req.header("authorization"));
  if (!token) throw unauthorized(c, "sign in: send Authorization: Bearer <API token>", "Bearer");
  const tokens = c.var.deps.tokens;
  // Always hash and look up, so unknown, revoked and malformed tokens take one path.
  const row = await tokens.findByHash(await sha256Hex(token));
  if (!row) throw unauthorized(c, "invalid or revoked API token", 'Bearer error="invalid_token"');
  const now = Date.now();
  if (D1ApiTokens.stale(row.lastUsedAt, now)) await afterResponse(c, tokens.touch(row.id, now));
  return { userId: row.userId, tokenId: row.id };
}

/** Builds the identity middleware; `fetch` reaches the Access key set (tests inject a local one). */
export function createIdentify(opts: { fetch?: typeof fetch } = {}) {
  const fetchImpl = opts.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const verifiers = new Map<string, AccessVerifier>();
  const verifierFor = (s: { issuer: string; audience: string; jwksUrl: string }): AccessVerifier => {
    const key = `${s.issuer} ${s.audience} ${s.jwksUrl}`;
    let v = verifiers.get(key);
    if (!v) verifiers.set(key, (v = createAccessVerifier(s, fetchImpl)));
    return v;
  };

  return createMiddleware<AppEnv>(async (c, next) => {
    const config = c.var.config;
    const bearer = bearerOf(c.req.header("authorization"));
    if (bearer?.startsWith(SHARE_TOKEN_PREFIX)) {
      throw new AppError(
        "forbidden",
        403,
        "a share link is read-only: it opens GET /api/shares/:token and nothing else",
      );
    }
    if (config.authMode === "local") {
      assertLocalClient(c);
      c.set("userId", LOCAL_OWNER);
      c.set("tokenId", null);
    } else if (config.authMode === "token") {
      const who = await byToken(c);
      c.set("userId", who.userId);
      c.set("tokenId", who.tokenId);
    } else {
      const jwt = accessJwtOf(c.req);
      if (!jwt || !config.access) throw unauthorized(c, "sign in through Cloudflare Access", "Cf-Access");
      const verdict = await verifierFor(config.access)(jwt);
      if (!verdict.ok) throw unauthorized(c, verdict.reason, "Cf-Access");
      c.set("userId", verdict.user);
      c.set("tokenId", null);
    }
    await next();
  });
}

/** The identity middleware with the global `fetch`. */
export const identify = createIdentify();
