/** Helpers for driving turns in workerd tests: sessions, scripted model responses, SSE parsing. */
import { exports } from "cloudflare:workers";
import type { UIMessageChunk } from "ai";
import type { ScriptedResponse } from "../support/scripted-model/script";
import { testEnv } from "./test-env";

const BASE = "http://wyckoff.test";

/** Calls the worker like a client would. */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, init));
}

/** POSTs JSON. */
export function postJson(path: string, body: unknown): Promise<Response> {
  return call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Creates a session and returns its id. */
export async function newSession(title?: string): Promise<string> {
  const res = await postJson("/api/sessions", title ? { title } : {});
  return ((await res.json()) as { id: string }).id;
}

const controlBase = () => testEnv.LLM_BASE_URL.replace(/\/v1$/, "");

/** Queues scripted model responses for requests whose messages contain `key`. */
export async function script(key: string, responses: ScriptedResponse[]): Promise<void> {
  const res = await fetch(`${controlBase()}/__script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, responses }),
  });
  if (!res.ok) throw new Error(`script rejected: ${res.status} ${await res.text()}`);
}

/** The chat-completions requests the scripted model received for `key`. */
export async function modelRequests(
  key: string,
): Promise<
  { body: { model: string; messages: { role: string; content: unknown; tool_calls?: unknown }[]; tools?: unknown[] } }[]
> {
  const res = await fetch(`${controlBase()}/__requests?key=${encodeURIComponent(key)}`);
  return (await res.json()) as never;
}

/** One SSE event of the turn stream. */
export interface Frame {
  id: number | undefined;
  data: string;
}

/** Parses SSE text into frames (`[DONE]` included as data). */
export function parseFrames(text: string): Frame[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      let id: number | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) id = Number(line.slice(4));
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      return { id, data: data.join("\n") };
    });
}

/** The chunks of parsed frames (without `[DONE]`). */
export function chunksOf(frames: readonly Frame[]): (UIMessageChunk & { type: string })[] {
  return frames.filter((f) => f.data !== "[DONE]").map((f) => JSON.parse(f.data) as UIMessageChunk);
}

/** Sends a message and reads the whole turn stream. */
export async function sendAndRead(sessionId: string, text: string): Promise<{ res: Response; frames: Frame[] }> {
  const res = await postJson(`/api/sessions/${sessionId}/messages`, { text });
  const body = await res.text();
  return { res, frames: parseFrames(body) };
}

/** Reads a stream until a chunk matching `until` arrives; returns the frames so far and the reader (still open). */
export async function readUntil(
  body: ReadableStream<Uint8Array>,
  until: (chunk: UIMessageChunk & { type: string }) => boolean,
): Promise<{ frames: Frame[]; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
    const frames = parseFrames(complete);
    if (chunksOf(frames).some(until)) return { frames, reader };
  }
  return { frames: parseFrames(text), reader };
}

/** Polls until `check` passes (for work that finishes after the client went away). */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The session as GET returns it. */
export async function readSession(id: string): Promise<{
  title: string;
  messages: { id: string; role: string; parts: Record<string, unknown>[]; metadata?: Record<string, unknown> }[];
  usage: Record<string, number>;
}> {
  return (await (await call(`/api/sessions/${id}`)).json()) as never;
}

/** Reads the rest of an open stream as text. */
export async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

/** The largest row (sum of its columns' byte lengths) in any table of a Durable Object's SQLite. */
export function largestRowBytes(sql: SqlStorage): { table: string; bytes: number } {
  let best = { table: "", bytes: 0 };
  const tables = sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .toArray();
  for (const { name } of tables) {
    const cols = sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('${name}')`).toArray();
    if (cols.length === 0) continue;
    const sum = cols.map((c) => `coalesce(length(CAST("${c.name}" AS BLOB)), 0)`).join(" + ");
    const row = sql.exec<{ b: number | null }>(`SELECT max(${sum}) AS b FROM "${name}"`).one();
    if ((row.b ?? 0) > best.bytes) best = { table: name, bytes: row.b ?? 0 };
  }
  return best;
}
