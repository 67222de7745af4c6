/**
 * Share links. Anyone holding a share token reads that one session (`GET /api/shares/:token`) and
 * watches its running turn (`…/stream?from=N`) and the charts of symbols the transcript names
 * (`…/bars/:symbol`) — nothing else: no writes, memory, traces, portfolio or spilled results. The owner creates (`POST /api/sessions/:id/share`), lists and revokes them.
 * Wrong, revoked and expired tokens answer the same 404 through the same path (hash, one lookup).
 */
import { getAgentByName } from "agents";
import { Hono, type Context } from "hono";
import { SessionPageQuery } from "../contracts/api";
import { CreateShareBody, type CreatedShare, type ShareList } from "../contracts/share";
import type { AppEnv } from "../http/app-env";
import { assertLocalClient } from "../http/identity";
import { readJson } from "../http/read-json";
import { newId, newSecret, SHARE_TOKEN_PREFIX, sha256Hex } from "../http/secrets";
import { AppError } from "../lib/app-error";
import { SessionIdParam, ShareKeyParam, ShareTokenParam, SymbolParam } from "../contracts/params";
import { pathParam, queryParams } from "../http/params";
import type { SessionAgent } from "../session/session-agent";
import { type LiveShare } from "../storage/share-repo";
import { chartBars } from "./market";
import { resumeFrom, SSE_HEADERS, watchTurn } from "./sessions";
import { auditExport } from "./audit";

const HOUR_MS = 60 * 60 * 1000;

/** One answer for every token that does not open a live share. */
function noShare(): AppError {
  return new AppError("not_found", 404, "share link not found: it may have been revoked or have expired");
}

async function liveShare(c: Context<AppEnv>): Promise<LiveShare> {
  assertLocalClient(c);
  const token = pathParam(c, "token", ShareTokenParam, noShare);
  const share = await c.var.deps.shares.findLive(await sha256Hex(token), Date.now());
  if (!share) throw noShare();
  // A deleted session takes its links with it (its Durable Object holds nothing any more).
  if (!(await c.var.deps.sessions.get(share.ownerId, share.sessionId))) throw noShare();
  return share;
}

const stubOf = (c: Context<AppEnv>, sessionId: string) =>
  getAgentByName<Env, SessionAgent>(c.env.SessionAgent, sessionId);

/** Read-only share routes (no identity), mounted at /api/shares before the identity middleware. */
export const shareReadRoutes = new Hono<AppEnv>()
  .get("/:token", async (c) => {
    const share = await liveShare(c);
    const q = queryParams(SessionPageQuery, c.req.query());
    const detail = await (await stubOf(c, share.sessionId)).snapshotJson(q);
    if (detail === null || !detail.startsWith("{")) throw noShare();
    const shared = {
      readOnly: true,
      expiresAt: share.expiresAt === null ? null : new Date(share.expiresAt).toISOString(),
      audit: share.exposeAudit,
    };
    return c.body(`{"shared":${JSON.stringify(shared)},${detail.slice(1)}`, 200, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
    });
  })
  .get("/:token/bars/:symbol", async (c) => {
    // Charts of the transcript: only symbols the shared session itself mentions.
    const share = await liveShare(c);
    const detail = (await (await stubOf(c, share.sessionId)).snapshotJson()) ?? "";
    const symbol = pathParam(c, "symbol", SymbolParam);
    if (!detail.includes(JSON.stringify(symbol)))
      throw new AppError("not_found", 404, "this share shows no chart of that symbol");
    return c.json(await chartBars(c, symbol));
  })
  .get("/:token/turn", async (c) => {
    const share = await liveShare(c);
    return c.json(await watchTurn(c, await stubOf(c, share.sessionId)));
  })
  .get("/:token/audit/head", async (c) => {
    const share = await liveShare(c);
    return c.json({ audit: await (await stubOf(c, share.sessionId)).auditHead() });
  })
  .get("/:token/audit", async (c) => {
    const share = await liveShare(c);
    if (!share.exposeAudit) throw new AppError("not_found", 404, "this share does not include the audit trail");
    return auditExport(await stubOf(c, share.sessionId), share.sessionId);
  })
  .get("/:token/stream", async (c) => {
    const share = await liveShare(c);
    const stream = await (await stubOf(c, share.sessionId)).openStream(resumeFrom(c));
    return stream ? new Response(stream, { headers: SSE_HEADERS }) : c.body(null, 204);
  });

/** The owner's share management, mounted at /api/shares after the identity middleware. */
export const shareOwnerRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const shares = await c.var.deps.shares.list(c.var.userId, Date.now());
    return c.json({ shares } satisfies ShareList);
  })
  .delete("/:key", async (c) => {
    const key = pathParam(c, "key", ShareKeyParam, noShare);
    const repo = c.var.deps.shares;
    const revoked = key.startsWith("sh_")
      ? await repo.revoke(c.var.userId, { id: key })
      : await repo.revoke(c.var.userId, { tokenHash: await sha256Hex(key) });
    if (!revoked) throw noShare();
    c.var.log.info("share_revoked", {});
    return c.body(null, 204);
  });

/** `POST /api/sessions/:id/share`, mounted at /api/sessions after the identity middleware. */
export const sessionShareRoutes = new Hono<AppEnv>().post("/:id/share", async (c) => {
  const id = pathParam(c, "id", SessionIdParam, (raw) => new AppError("not_found", 404, `session ${raw} not found`));
  const missing = new AppError("not_found", 404, `session ${id} not found`);
  if (!(await c.var.deps.sessions.get(c.var.userId, id))) throw missing;
  const body = await readJson(c, CreateShareBody);
  const now = Date.now();
  const token = newSecret(SHARE_TOKEN_PREFIX);
  const share = {
    id: newId("sh_"),
    ownerId: c.var.userId,
    sessionId: id,
    expiresAt: body.expiresInHours ? now + body.expiresInHours * HOUR_MS : null,
    exposeAudit: body.audit === true,
  };
  await c.var.deps.shares.insert({ ...share, tokenHash: await sha256Hex(token), now });
  c.var.log.info("share_created", { sessionId: id, shareId: share.id });
  const url = `${new URL(c.req.url).origin}/s/${token}`;
  return c.json(
    {
      id: share.id,
      token,
      url,
      sessionId: id,
      expiresAt: share.expiresAt === null ? null : new Date(share.expiresAt).toISOString(),
      audit: share.exposeAudit,
    } satisfies CreatedShare,
    201,
  );
});
