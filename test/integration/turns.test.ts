/**
 * Full turns inside workerd: the session DO runs the loop against the scripted OpenAI-compatible
 * model on loopback (real provider code, real SSE), stores every event, and streams the AI SDK UI
 * message protocol to any client: one turn at a time, resume, cancel, bad input. Approvals and provider
 * faults: turn-approvals-and-faults.test.ts; what the session keeps around its turns: session-turn-state.test.ts.
 */
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  call,
  chunksOf,
  eventually,
  modelRequests,
  newSession,
  parseFrames,
  postJson,
  readSession,
  readRest,
  readUntil,
  script,
  sendAndRead,
} from "./turn-helpers";

describe("a turn with a tool call", () => {
  it("streams reasoning, the tool call, its output and the answer, with an id per event", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { reasoning: "Need the exchange clock.", toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
      { text: "现在是上海时间。", usage: { prompt: 120, completion: 9 } },
    ]);
    const { res, frames } = await sendAndRead(id, `几点了？${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");

    const ids = frames.filter((f) => f.id !== undefined).map((f) => f.id);
    expect(ids).toEqual(ids.map((_, i) => i));
    expect(frames.at(-1)?.data).toBe("[DONE]");
    const chunks = chunksOf(frames);
    const types = chunks.map((c) => c.type);
    expect(types[0]).toBe("start");
    expect(types).toContain("data-model-start");
    expect(types).toContain("reasoning-delta");
    expect(types.indexOf("tool-input-available")).toBeLessThan(types.indexOf("tool-output-available"));
    expect(types.at(-1)).toBe("finish");
    const output = chunks.find((c) => c.type === "tool-output-available") as { output: { timezone: string } };
    expect(output.output.timezone).toBe("Asia/Shanghai");
    const finish = chunks.at(-1) as {
      messageMetadata: { usage: { inputTokens: number; outputTokens: number }; rounds: number; model: string };
    };
    expect(finish.messageMetadata.rounds).toBe(2);
    expect(finish.messageMetadata.model).toBe("scripted");
    expect(finish.messageMetadata.usage.inputTokens).toBeGreaterThan(120);

    // The model saw the tool's schema, then its result as a tool message.
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[0]?.body.tools)).toContain("get_time");
    const roles = requests[1]?.body.messages.map((m) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "tool"]);

    // Stored: the user message, and the assistant message as an AI SDK client builds it.
    const session = await readSession(id);
    expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const tool = session.messages[1]?.parts.find((p) => p.type === "tool-get_time");
    expect(tool).toMatchObject({ state: "output-available", input: { market: "cn" } });
    expect(session.messages[1]?.parts.some((p) => p.type === "text" && p.text === "现在是上海时间。")).toBe(true);
    expect(session.usage.inputTokens).toBeGreaterThan(120);
    expect(session.title).toBe(`几点了？${key}`.slice(0, 40));
  });

  it("is read by the AI SDK's own UI message stream reader into the expected message", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ toolCalls: [{ name: "check_background_tasks", arguments: {} }] }, { text: "No tasks yet." }]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `any jobs? ${key}` });
    const chunks = parseJsonEventStream({
      stream: res.body as ReadableStream<Uint8Array>,
      schema: uiMessageChunkSchema,
    }).pipeThrough(
      new TransformStream({
        transform(result, controller) {
          if (!result.success) throw result.error;
          controller.enqueue(result.value);
        },
      }),
    );
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream({ stream: chunks })) message = m;
    expect(message?.role).toBe("assistant");
    const tool = message?.parts.find((p) => p.type === "tool-check_background_tasks");
    expect(tool).toMatchObject({
      state: "output-available",
      output: { tasks: [], message: "no background tasks in this session" },
    });
    expect(message?.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual([
      "No tasks yet.",
    ]);
  });
});

describe("one turn at a time", () => {
  it("answers 409 to a second message while a turn runs", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "slow answer ".repeat(20), chunkDelayMs: 40, chunkSize: 6 }]);
    const first = await postJson(`/api/sessions/${id}/messages`, { text: `first ${key}` });
    const second = await postJson(`/api/sessions/${id}/messages`, { text: `second ${key}` });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe("conflict");
    const frames = parseFrames(await first.text());
    expect(chunksOf(frames).at(-1)?.type).toBe("finish");
  });
});

describe("resuming the stream", () => {
  it("replays from N while the turn runs (another client) and after it ended, identical to the live stream", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "一二三四五六七八九十".repeat(6), chunkDelayMs: 25, chunkSize: 4 }]);
    const live = await postJson(`/api/sessions/${id}/messages`, { text: `go ${key}` });
    const { frames: firstFrames, reader } = await readUntil(
      live.body as ReadableStream<Uint8Array>,
      (c) => c.type === "text-delta",
    );
    // A second client joins mid-turn from the middle of the log.
    const from = (firstFrames.at(-1)?.id ?? 0) + 1;
    const joined = await call(`/api/sessions/${id}/stream?from=${from}`);
    // The first client finishes reading.
    const rest = await readRest(reader);
    const liveFrames = [...firstFrames, ...parseFrames(rest)];
    const joinedFrames = parseFrames(await joined.text());
    expect(joinedFrames.map((f) => f.id)).toEqual(
      liveFrames
        .filter((f) => f.id !== undefined && f.id >= from)
        .map((f) => f.id)
        .concat([undefined]),
    );
    expect(joinedFrames.at(-1)?.data).toBe("[DONE]");
    // After the end: a full replay equals what the live client saw.
    const replay = parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text());
    const firstId = liveFrames[0]?.id ?? 0;
    expect(replay.filter((f) => f.id === undefined || f.id >= firstId)).toEqual(liveFrames);
  });

  it("keeps running when the client disconnects; a resume then has every event once", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "get_time", arguments: { market: "us" } }], chunkDelayMs: 10 },
      { text: "The NYSE clock says so. ".repeat(8), chunkDelayMs: 15, chunkSize: 5 },
    ]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `US time? ${key}` });
    const { reader } = await readUntil(res.body as ReadableStream<Uint8Array>, (c) => c.type === "tool-input-start");
    await reader.cancel();
    const session = await eventually(async () => {
      const s = await readSession(id);
      return s.messages[1]?.metadata?.status === "done" ? s : undefined;
    });
    const text = session.messages[1]?.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("");
    expect(text).toBe("The NYSE clock says so. ".repeat(8));
    const frames = parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text());
    const ids = frames.filter((f) => f.id !== undefined).map((f) => f.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(ids.map((_, i) => (ids[0] ?? 0) + i));
    const types = chunksOf(frames).map((c) => c.type);
    expect(types.filter((t) => t === "start")).toHaveLength(1);
    expect(types.filter((t) => t === "finish")).toHaveLength(1);
    expect(types.filter((t) => t === "tool-output-available")).toHaveLength(1);
  });

  it("rejects a negative or non-numeric `from`, and waits live when `from` is beyond the log", async () => {
    const id = await newSession();
    expect((await call(`/api/sessions/${id}/stream?from=-1`)).status).toBe(400);
    expect((await call(`/api/sessions/${id}/stream?from=abc`)).status).toBe(400);
    // No turn yet: an empty replay that closes.
    expect(parseFrames(await (await call(`/api/sessions/${id}/stream?from=999`)).text())).toEqual([
      { id: undefined, data: "[DONE]" },
    ]);
    const key = `k-${id}`;
    await script(key, [{ text: "late events", chunkDelayMs: 30, chunkSize: 3 }]);
    const turn = await postJson(`/api/sessions/${id}/messages`, { text: `hi ${key}` });
    const waiting = await call(`/api/sessions/${id}/stream?from=999999`);
    const liveFrames = parseFrames(await turn.text());
    const beyond = parseFrames(await waiting.text());
    // Nothing at or beyond 999999 is stored, so the replay is empty; then it follows the turn live
    // to its end: what it got is exactly the tail of what the first client saw.
    expect(chunksOf(liveFrames).at(-1)?.type).toBe("finish");
    expect(beyond.at(-1)).toEqual({ id: undefined, data: "[DONE]" });
    expect(beyond.length).toBeGreaterThan(1);
    expect(liveFrames.slice(liveFrames.length - beyond.length)).toEqual(beyond);
  });
});

describe("cancel", () => {
  it("stops the running turn at once and ends the stream with abort", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "a very long answer ".repeat(200), chunkDelayMs: 50, chunkSize: 4 }]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `long ${key}` });
    const { reader, frames } = await readUntil(res.body as ReadableStream<Uint8Array>, (c) => c.type === "text-delta");
    const cancel = await call(`/api/sessions/${id}/cancel`, { method: "POST" });
    expect(await cancel.json()).toEqual({ cancelled: true });
    const rest = await readRest(reader);
    const chunks = chunksOf([...frames, ...parseFrames(rest)]);
    // The model request was aborted rather than left to finish (~10 s of scripted text).
    await expect
      .poll(async () => ((await modelRequests(key)) as unknown as { clientAborted: boolean }[])[0]?.clientAborted)
      .toBe(true);
    expect(chunks.filter((c) => c.type === "text-delta").length).toBeLessThan(100);
    expect(chunks.at(-1)).toEqual({ type: "abort", reason: "cancelled" });
    const session = await readSession(id);
    expect(session.messages[1]?.metadata?.status).toBe("cancelled");
    // The session accepts a new turn afterwards.
    await script(key, [{ text: "fresh" }]);
    const next = await sendAndRead(id, `again ${key}`);
    expect(chunksOf(next.frames).at(-1)?.type).toBe("finish");
  });

  it("answers { cancelled: false } when nothing runs", async () => {
    const id = await newSession();
    expect(await (await call(`/api/sessions/${id}/cancel`, { method: "POST" })).json()).toEqual({ cancelled: false });
  });
});

describe("bad input to turns", () => {
  it("rejects empty and oversized text, and unknown sessions", async () => {
    const id = await newSession();
    expect((await postJson(`/api/sessions/${id}/messages`, { text: "   " })).status).toBe(400);
    expect((await postJson(`/api/sessions/${id}/messages`, {})).status).toBe(400);
    expect((await postJson(`/api/sessions/${id}/messages`, { text: "x".repeat(20_001) })).status).toBe(413);
    expect((await postJson(`/api/sessions/s_0000000000000000000000000a/messages`, { text: "hi" })).status).toBe(404);
    expect((await readSession(id)).messages).toEqual([]);
  });

  it("answers 404 for unknown approvals and approvals of another session, 400 for a bad decision", async () => {
    const a = await newSession();
    const b = await newSession();
    const key = `k-${a}`;
    await script(key, [
      { toolCalls: [{ name: "rename_session", arguments: { title: "Moutai study" } }] },
      { text: "renamed" },
    ]);
    const res = await postJson(`/api/sessions/${a}/messages`, { text: `name it ${key}` });
    const { frames, reader } = await readUntil(
      res.body as ReadableStream<Uint8Array>,
      (c) => c.type === "tool-approval-request",
    );
    const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as { approvalId: string };
    expect((await postJson(`/api/sessions/${a}/approvals/a_unknown`, { decision: "allow" })).status).toBe(404);
    expect((await postJson(`/api/sessions/${b}/approvals/${request.approvalId}`, { decision: "allow" })).status).toBe(
      404,
    );
    expect((await postJson(`/api/sessions/${a}/approvals/${request.approvalId}`, { decision: "maybe" })).status).toBe(
      400,
    );
    expect(
      (await postJson(`/api/sessions/${a}/approvals/${request.approvalId}`, { decision: "edit", input: { title: "" } }))
        .status,
    ).toBe(400);
    expect(
      (
        await postJson(`/api/sessions/${a}/approvals/${request.approvalId}`, {
          decision: "deny",
          reason: "keep the name",
        })
      ).status,
    ).toBe(200);
    expect((await postJson(`/api/sessions/${a}/approvals/${request.approvalId}`, { decision: "allow" })).status).toBe(
      409,
    );
    await reader.cancel();
    const session = await eventually(async () => {
      const s = await readSession(a);
      return s.messages[1]?.metadata?.status === "done" ? s : undefined;
    });
    expect(session.title).not.toBe("Moutai study");
    const tool = session.messages[1]?.parts.find((p) => p.type === "tool-rename_session");
    expect(tool?.state).toBe("output-denied");
  });
});
