/**
 * Admin routes (`/api/admin/*`): create, list and revoke users' API tokens; start a market sync. They answer only to
 * `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time; with no ADMIN_TOKEN set they are
 * refused. A created token is shown once; only its SHA-256 is stored.
 */
import { Hono } from "hono";
import { KeyParam } from "../contracts/params";
import { pathParam } from "../http/params";
import { createMiddleware } from "hono/factory";
import { CreateAdminTokenBody, type ApiTokenList, type CreatedApiToken } from "../contracts/identity";
import { SyncStartQuery } from "../contracts/market-sync";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { API_TOKEN_PREFIX, bearerOf, newId, newSecret, sameSecret, sha256Hex } from "../http/secrets";
import { AppError } from "../lib/app-error";
import type { D1ApiTokens } from "../storage/api-token-repo";

const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.var.config.adminToken;
  if (!expected) throw new AppError("forbidden", 403, "admin routes are disabled: set the ADMIN_TOKEN secret");
  const given = bearerOf(c.req.header("authorization"));
  if (!given || !(await sameSecret(given, expected))) {
    c.header("www-authenticate", "Bearer");
    throw new AppError("unauthorized", 401, "admin routes need Authorization: Bearer <ADMIN_TOKEN>");
  }
  await next();
});

/** Issues a token for `user` (admin or self-service) and returns it once. */
export async function issueToken(
  tokens: Pick<D1ApiTokens, "insert">,
  entry: { user: string; label: string; createdBy: "admin" | "user" },
): Promise<CreatedApiToken> {
  const token = newSecret(API_TOKEN_PREFIX);
  const id = newId("tk_");
  await tokens.insert({
    id,
    userId: entry.user,
    label: entry.label,
    tokenHash: await sha256Hex(token),
    createdBy: entry.createdBy,
    now: Date.now(),
  });
  return { id, user: entry.user, label: entry.label, token };
}

/** Admin routes, mounted at /api/admin before the identity middleware. */
export const adminRoutes = new Hono<AppEnv>()
  .use(requireAdmin)
  .get("/tokens", async (c) => {
    const user = c.req.query("user");
    const tokens = await c.var.deps.tokens.list(user || undefined);
    return c.json({ tokens } satisfies ApiTokenList);
  })
  .post("/tokens", async (c) => {
    const body = await readJson(c, CreateAdminTokenBody);
    const created = await issueToken(c.var.deps.tokens, {
      user: body.user,
      label: body.label ?? "",
      createdBy: "admin",
    });
    c.var.log.info("token_created", { tokenId: created.id, by: "admin" });
    return c.json(created satisfies CreatedApiToken, 201);
  })
  .post("/market-sync", async (c) => {
    if (c.var.config.marketData !== "live")
      throw new AppError(
        "conflict",
        409,
        "MARKET_DATA is offline: the bundled market needs no sync (set MARKET_DATA=live to sync the real market)",
      );
    const q = SyncStartQuery.safeParse(c.req.query());
    if (!q.success) throw new AppError("invalid_input", 400, "market: cn, us or all", { details: { field: "market" } });
    const markets = q.data.market === "all" ? (["CN", "US"] as const) : q.data.market === "us" ? ["US"] : ["CN"];
    for (const market of markets) await c.env.MARKET_SYNC_QUEUE.send({ kind: "sync.start", market });
    c.var.log.info("market_sync_requested", { by: "admin", markets: markets.join(",") });
    return c.json(
      { queued: true, status: q.data.market === "us" ? "/api/market/sync?market=us" : "/api/market/sync" },
      202,
    );
  })
  .delete("/tokens/:id", async (c) => {
    const id = pathParam(c, "id", KeyParam, (raw) => new AppError("not_found", 404, `token ${raw} not found`));
    if (!(await c.var.deps.tokens.revoke(id))) {
      throw new AppError("not_found", 404, `token ${id} not found`);
    }
    c.var.log.info("token_revoked", { tokenId: id, by: "admin" });
    return c.body(null, 204);
  });
