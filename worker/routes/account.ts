/**
 * The signed-in user's own account: who they are (`GET /api/me`) and their API tokens for
 * `AUTH_MODE=token` (list, create — shown once —, revoke), as the reading room's settings show them.
 * Another user's token id answers 404.
 */
import { Hono } from "hono";
import { KeyParam } from "../contracts/params";
import { pathParam } from "../http/params";
import { CreateOwnTokenBody, type ApiTokenList, type CreatedApiToken, type Me } from "../contracts/identity";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { AppError } from "../lib/app-error";
import { issueToken } from "./admin";

/** Account routes, mounted at /api after the identity middleware. */
export const accountRoutes = new Hono<AppEnv>()
  .get("/me", (c) =>
    c.json({ user: c.var.userId, authMode: c.var.config.authMode, tokenId: c.var.tokenId } satisfies Me),
  )
  .get("/tokens", async (c) => {
    const tokens = await c.var.deps.tokens.list(c.var.userId);
    return c.json({ tokens } satisfies ApiTokenList);
  })
  .post("/tokens", async (c) => {
    const body = await readJson(c, CreateOwnTokenBody);
    const created = await issueToken(c.var.deps.tokens, {
      user: c.var.userId,
      label: body.label ?? "",
      createdBy: "user",
    });
    c.var.log.info("token_created", { tokenId: created.id, by: "user" });
    return c.json(created satisfies CreatedApiToken, 201);
  })
  .delete("/tokens/:id", async (c) => {
    const id = pathParam(c, "id", KeyParam, (raw) => new AppError("not_found", 404, `token ${raw} not found`));
    if (!(await c.var.deps.tokens.revoke(id, c.var.userId))) {
      throw new AppError("not_found", 404, `token ${id} not found`);
    }
    c.var.log.info("token_revoked", { tokenId: id, by: "user" });
    return c.body(null, 204);
  });
