/**
 * Session routes: create, list, read. The D1 index says which sessions exist and who owns them;
 * each session's content comes from its Durable Object. Another owner's id answers 404.
 */
import { Hono, type Context } from "hono";
import {
  ApprovalBody,
  CreateSessionBody,
  LastEventId,
  MAX_MESSAGE_CHARS,
  UpdateSessionBody,
  SendMessageBody,
  StreamQuery,
  TurnWatchQuery,
  TraceQuery,
  SessionPageQuery,
  type CancelResult,
  type CreatedSession,
  type TurnWatch,
  type SessionList,
} from "../contracts/api";
import { AppError } from "../lib/app-error";
import { KeyParam, SessionIdParam, TurnIdParam } from "../contracts/params";
import { invalidInput, pathParam, queryParams } from "../http/params";
import { issuesInChinese } from "../contracts/errors";
import type { AppEnv } from "../http/app-env";
import type { RpcFailure, SessionAgent } from "../session/session-agent";
import { readJson } from "../http/read-json";
import type { D1SessionIndex } from "../storage/session-index-repo";
import { newId } from "../http/secrets";
import { sessionStub } from "../session/session-stub";
import { rateLimited, takeOrRefuse } from "../http/rate-limit";

const SESSION_PREFIX = "s_";
const DEFAULT_TITLE = "New session";

function notFound(id: string): AppError {
  return new AppError("not_found", 404, `session ${id} not found`);
}

const RPC_STATUS = { not_found: 404, conflict: 409, invalid_input: 400 } as const;

function rpcError(failure: RpcFailure): AppError {
  return new AppError(
    failure.code,
    RPC_STATUS[failure.code],
    failure.message,
    failure.messages ? { details: { messages: failure.messages } } : undefined,
  );
}

/** Headers of the turn stream (CONTRACTS.md "The turn stream"). */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
};

/**
 * Where a stream resume starts: after the `Last-Event-ID` header's index when an EventSource
 * reconnects (it repeats the original URL, so the header wins over `?from=`), else `?from=`, else 0.
 */
export function resumeFrom(c: Context<AppEnv>): number {
  const header = c.req.header("last-event-id");
  if (header !== undefined && header.trim() !== "") {
    const parsed = LastEventId.safeParse(header.trim());
    if (!parsed.success) {
      const en = parsed.error.issues[0]?.message ?? "invalid Last-Event-ID";
      const zh = issuesInChinese(LastEventId, header.trim(), parsed.error.issues)[0]?.message ?? "Last-Event-ID 无效";
      throw invalidInput("Last-Event-ID", en, zh);
    }
    return parsed.data;
  }
  return queryParams(StreamQuery, c.req.query()).from ?? 0;
}

/** The caller's session stub, or 404 (unknown, malformed or someone else's id). */
export async function ownedSession(
  c: Context<AppEnv>,
): Promise<{ id: string; stub: DurableObjectStub<SessionAgent>; index: D1SessionIndex }> {
  const id = pathParam(c, "id", SessionIdParam, notFound);
  const index = c.var.deps.sessions;
  if (!(await index.get(c.var.userId, id))) throw notFound(id);
  return { id, stub: sessionStub(c.env.SessionAgent, id), index };
}

/** The session's turn-state long-poll (`GET …/turn?after=&wait=`), shared with share links. */
export async function watchTurn(c: Context<AppEnv>, stub: DurableObjectStub<SessionAgent>): Promise<TurnWatch> {
  const query = queryParams(TurnWatchQuery, c.req.query());
  const watch = await stub.watchTurn(query.after ?? null, (query.wait ?? 20) * 1000);
  return { key: watch.key, turn: watch.turn };
}

/** Session routes, mounted at /api/sessions. */
export const sessionRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const body = await readJson(c, CreateSessionBody);
    const id = newId(SESSION_PREFIX);
    const now = Date.now();
    const init = { id, ownerId: c.var.userId, title: body.title ?? DEFAULT_TITLE, profile: body.profile ?? null, now };
    const stub = sessionStub(c.env.SessionAgent, id);
    await stub.init(init);
    await c.var.deps.sessions.insert(init);
    c.var.log.info("session_created", { sessionId: id });
    return c.json({ id } satisfies CreatedSession, 201);
  })
  .get("/", async (c) => {
    const sessions = await c.var.deps.sessions.list(c.var.userId);
    return c.json({ sessions } satisfies SessionList);
  })
  .get("/:id", async (c) => {
    const { id, stub } = await ownedSession(c);
    const detail = await stub.snapshotJson(queryParams(SessionPageQuery, c.req.query()));
    if (detail === null) throw notFound(id);
    return c.body(detail, 200, { "content-type": "application/json; charset=utf-8" });
  })
  .patch("/:id", async (c) => {
    const { id, stub, index } = await ownedSession(c);
    const body = await readJson(c, UpdateSessionBody);
    const updated = await stub.update(body);
    await index.touch(id, Date.now(), body.title, body.profile);
    return c.json({ id, ...updated });
  })
  .delete("/:id", async (c) => {
    const { id, stub, index } = await ownedSession(c);
    // The chain's head outlives the session in D1, so a deletion is visible to a later audit.
    const head = await stub.auditHead();
    if (head)
      await c.var.deps.tombstones.insert({
        sessionId: id,
        ownerId: c.var.userId,
        headHash: head.head,
        entries: head.count,
        signed: head.signed,
        deletedAt: Date.now(),
      });
    // Marked first: should the erase below fail after the index row is gone, the DO still refuses turns.
    await stub.markDeleted();
    await index.remove(id);
    await stub.erase();
    c.var.log.info("session_deleted", { sessionId: id });
    return c.body(null, 204);
  })
  .get("/:id/trace", async (c) => {
    const { stub } = await ownedSession(c);
    const { turn } = queryParams(TraceQuery, c.req.query());
    const text = await stub.readTrace(turn);
    if (text === null) throw new AppError("not_found", 404, "no trace for that turn");
    return c.body(text, 200, { "content-type": "application/x-ndjson; charset=utf-8" });
  })
  .get("/:id/spills/:turnId/:callId", async (c) => {
    const { stub } = await ownedSession(c);
    const noSpill = () => new AppError("not_found", 404, "no spilled result with that reference");
    const turnId = pathParam(c, "turnId", TurnIdParam, noSpill);
    const callId = pathParam(c, "callId", KeyParam, noSpill);
    const text = await stub.readSpill(turnId, callId);
    if (text === null) throw noSpill();
    return c.body(text, 200, { "content-type": "application/json; charset=utf-8" });
  })
  .post("/:id/messages", async (c) => {
    // The hot path: ownership is checked by the session DO itself (its `session_meta` owner, the
    // same owner the D1 index row was written with), and the turn's rate-limit unit is taken there
    // too, in the set-up reads' D1 round trip — so a turn costs no D1 request before the DO. A
    // request refused before the DO takes its unit here first: a 429 still wins over every answer.
    let id: string;
    try {
      id = pathParam(c, "id", SessionIdParam, notFound);
    } catch (error) {
      await takeOrRefuse(c, "turns");
      throw error;
    }
    const index = c.var.deps.sessions;
    let body: SendMessageBody;
    try {
      body = await readJson(c, SendMessageBody);
      if (body.text.length > MAX_MESSAGE_CHARS) {
        throw new AppError("payload_too_large", 413, `text exceeds ${MAX_MESSAGE_CHARS} characters`);
      }
    } catch (error) {
      await takeOrRefuse(c, "turns");
      // As before, another owner's (or an unknown) session answers 404 whatever the body holds.
      if (!(await index.get(c.var.userId, id))) throw notFound(id);
      throw error;
    }
    const started = await sessionStub(c.env.SessionAgent, id).startTurn({
      text: body.text,
      ...(body.lang ? { lang: body.lang } : {}),
      userId: c.var.userId,
      turnsPerHour: c.var.config.rateLimits.turnsPerHour,
    });
    if (!started.ok) {
      if (started.code === "rate_limited") throw rateLimited(c, started.message, started.retryAfterS);
      throw started.code === "not_found" ? notFound(id) : rpcError(started);
    }
    // Index bookkeeping must not delay the first byte of the stream.
    c.executionCtx.waitUntil(index.touch(id, Date.now(), started.title));
    return new Response(started.stream, { headers: SSE_HEADERS });
  })
  .get("/:id/stream", async (c) => {
    const { stub } = await ownedSession(c);
    const stream = await stub.openStream(resumeFrom(c));
    return stream ? new Response(stream, { headers: SSE_HEADERS }) : c.body(null, 204);
  })
  // The resume path of the AI SDK's DefaultChatTransport when `api` is this session's messages
  // route: `${api}/${chatId}/stream` (the chat id must be the session id).
  .get("/:id/messages/:chatId/stream", async (c) => {
    const { id, stub } = await ownedSession(c);
    if (c.req.param("chatId") !== id) throw notFound(c.req.param("chatId"));
    const stream = await stub.openStream(resumeFrom(c));
    return stream ? new Response(stream, { headers: SSE_HEADERS }) : c.body(null, 204);
  })
  .get("/:id/turn", async (c) => {
    const { stub } = await ownedSession(c);
    return c.json(await watchTurn(c, stub));
  })
  .post("/:id/cancel", async (c) => {
    const { stub } = await ownedSession(c);
    return c.json((await stub.cancel()) satisfies CancelResult);
  })
  .post("/:id/approvals/:approvalId", async (c) => {
    const { stub } = await ownedSession(c);
    const body = await readJson(c, ApprovalBody);
    const approvalId = pathParam(
      c,
      "approvalId",
      KeyParam,
      () => new AppError("not_found", 404, "no pending approval with that id"),
    );
    const answer = await stub.decide(approvalId, body, c.var.userId);
    if (!answer.ok) throw rpcError(answer);
    return c.json({ ok: true });
  });
