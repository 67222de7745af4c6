/**
 * Session routes: create, list, read. The D1 index says which sessions exist and who owns them;
 * each session's content comes from its Durable Object. Another owner's id answers 404.
 */
import { getAgentByName } from "agents";
import { Hono } from "hono";
import { CreateSessionBody, type CreatedSession, type SessionList } from "../contracts/api";
import { AppError } from "../lib/app-error";
import { formatId, isWellFormedId } from "../lib/ids";
import type { AppEnv } from "../http/app-env";
import type { SessionAgent } from "../session/session-agent";
import { readJson } from "../http/read-json";
import { createDb } from "../storage/db";
import { D1SessionIndex } from "../storage/session-index-repo";

const SESSION_PREFIX = "s_";
const DEFAULT_TITLE = "New session";

function notFound(id: string): AppError {
  return new AppError("not_found", 404, `session ${id} not found`);
}

/** Session routes, mounted at /api/sessions. */
export const sessionRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const body = await readJson(c, CreateSessionBody);
    const id = formatId(crypto.getRandomValues(new Uint8Array(16)), SESSION_PREFIX);
    const now = Date.now();
    const init = { id, ownerId: c.var.userId, title: body.title ?? DEFAULT_TITLE, profile: body.profile ?? null, now };
    const stub = await getAgentByName<Env, SessionAgent>(c.env.SessionAgent, id);
    await stub.init(init);
    await new D1SessionIndex(createDb(c.env.DB)).insert(init);
    c.var.log.info("session_created", { sessionId: id });
    return c.json({ id } satisfies CreatedSession, 201);
  })
  .get("/", async (c) => {
    const sessions = await new D1SessionIndex(createDb(c.env.DB)).list(c.var.userId);
    return c.json({ sessions } satisfies SessionList);
  })
  .get("/:id", async (c) => {
    const id = c.req.param("id");
    if (!isWellFormedId(id, SESSION_PREFIX)) throw notFound(id);
    const entry = await new D1SessionIndex(createDb(c.env.DB)).get(c.var.userId, id);
    if (!entry) throw notFound(id);
    const stub = await getAgentByName<Env, SessionAgent>(c.env.SessionAgent, id);
    const detail = await stub.snapshotJson();
    if (detail === null) throw notFound(id);
    return c.body(detail, 200, { "content-type": "application/json; charset=utf-8" });
  });
