/**
 * Memory routes (owner-only; another person's memory id answers 404): list with type filter and
 * full-text search, trace to the source messages, correct and delete. Search goes through the same
 * quoted-term query as recall, so FTS syntax in `q` is plain text.
 */
import { getAgentByName } from "agents";
import { KeyParam } from "../contracts/params";
import { pathParam, queryParams } from "../http/params";
import { Hono, type Context } from "hono";
import { SessionDetail, type StoredUIMessage } from "../contracts/api";
import { MemoryListQuery, MemoryPatchBody, type Memory, type MemoryList, type MemoryTrace } from "../contracts/memory";
import { AppError } from "../lib/app-error";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { buildRecallQuery } from "../memory/fts-query";
import { extractKeywords } from "../memory/keywords";
import { sentencesOf } from "../memory/extract-rules";
import { stockCodes } from "../memory/stock-codes";
import type { StoredMemory } from "../ports/memory-store";
import type { SessionAgent } from "../session/session-agent";

const iso = (ms: number) => new Date(ms).toISOString();

function toMemory(m: StoredMemory): Memory {
  return {
    id: m.id,
    type: m.type,
    content: m.content,
    keywords: m.keywords,
    codes: m.codes,
    relevance: m.relevance,
    origin: m.origin,
    source: m.source,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
    lastHitAt: m.lastHitAt === null ? null : iso(m.lastHitAt),
  };
}

function notFound(id: string): AppError {
  return new AppError("not_found", 404, `memory ${id} not found`);
}

async function owned(c: Context<AppEnv>): Promise<StoredMemory> {
  const id = pathParam(c, "id", KeyParam, notFound);
  const memory = await c.var.deps.memory.get(c.var.userId, id);
  if (!memory) throw notFound(id);
  return memory;
}

function textOf(message: StoredUIMessage): string {
  return message.parts.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("\n");
}

/** The source messages of a memory (by id; a flushed memory without ids: the user messages holding its sentences). */
function sourceMessages(memory: StoredMemory, all: readonly StoredUIMessage[]): StoredUIMessage[] {
  if (memory.source.messageIds.length > 0) return all.filter((m) => memory.source.messageIds.includes(m.id));
  const sentences = sentencesOf(memory.content);
  return all.filter((m) => m.role === "user" && sentences.some((s) => textOf(m).includes(s)));
}

/** Memory routes, mounted at /api/memory. */
export const memoryRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const { type, q, limit } = queryParams(MemoryListQuery, c.req.query());
    const match = q ? buildRecallQuery(q).match : undefined;
    const memories =
      q && match === null
        ? []
        : await c.var.deps.memory.list(c.var.userId, {
            limit,
            ...(type ? { type } : {}),
            ...(match ? { match } : {}),
          });
    return c.json({ memories: memories.map(toMemory) } satisfies MemoryList);
  })
  .get("/:id/trace", async (c) => {
    const memory = await owned(c);
    const sessionId = memory.source.sessionId;
    const indexed = sessionId ? await c.var.deps.sessions.get(c.var.userId, sessionId) : null;
    let messages: StoredUIMessage[] = [];
    if (indexed) {
      const stub = await getAgentByName<Env, SessionAgent>(c.env.SessionAgent, sessionId);
      const json = await stub.snapshotJson();
      const detail = json === null ? null : SessionDetail.parse(JSON.parse(json));
      messages = detail ? sourceMessages(memory, detail.messages) : [];
    }
    const found = new Set(messages.map((m) => m.id));
    return c.json({
      memory: toMemory(memory),
      session: indexed ? { id: indexed.id, title: indexed.title } : null,
      messages,
      missing: memory.source.messageIds.filter((id) => !found.has(id)),
    } satisfies MemoryTrace);
  })
  .patch("/:id", async (c) => {
    const memory = await owned(c);
    const body = await readJson(c, MemoryPatchBody);
    const content = body.content;
    const change = {
      ...(content !== undefined ? { content, keywords: extractKeywords(content), codes: stockCodes(content) } : {}),
      ...(body.type !== undefined ? { type: body.type } : {}),
      ...(body.relevance !== undefined ? { relevance: body.relevance } : {}),
    };
    try {
      const updated = await c.var.deps.memory.update(c.var.userId, memory.id, change, Date.now());
      if (!updated) throw notFound(memory.id);
      return c.json(toMemory(updated));
    } catch (error) {
      if (error instanceof Error && /UNIQUE/i.test(`${error.message} ${String(error.cause ?? "")}`))
        throw new AppError("conflict", 409, "an identical memory of this type already exists");
      throw error;
    }
  })
  .delete("/:id", async (c) => {
    const memory = await owned(c);
    await c.var.deps.memory.remove(c.var.userId, memory.id);
    return c.body(null, 204);
  });
