/**
 * Full turns inside workerd: the session DO runs the loop against the scripted OpenAI-compatible
 * model on loopback (real provider code, real SSE), stores every event, and streams the AI SDK UI
 * message protocol to any client.
 */
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { SessionAgent } from "../../worker/session/session-agent";
import { testEnv } from "./test-env";
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

describe("approvals", () => {
  it("allow runs the call once; always skips later approvals for that tool; edit runs the edited input", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "rename_session", arguments: { title: "First" } }] },
      { text: "done one" },
      { toolCalls: [{ name: "rename_session", arguments: { title: "Second" } }] },
      { text: "done two" },
      { toolCalls: [{ name: "rename_session", arguments: { title: "Third" } }] },
      { text: "done three" },
    ]);
    const answer = async (text: string, decision: Record<string, unknown> | null) => {
      const res = await postJson(`/api/sessions/${id}/messages`, { text: `${text} ${key}` });
      const body = res.body as ReadableStream<Uint8Array>;
      if (!decision) return chunksOf(parseFrames(await res.text()));
      // The stream pauses (ends without [DONE]) at the approval request; the client answers, then follows on.
      const frames = parseFrames(await new Response(body).text());
      expect(frames.at(-1)?.data).not.toBe("[DONE]");
      const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as { approvalId: string };
      expect((await postJson(`/api/sessions/${id}/approvals/${request.approvalId}`, decision)).status).toBe(200);
      const next = (frames.at(-1)?.id ?? 0) + 1;
      const rest = parseFrames(await (await call(`/api/sessions/${id}/stream?from=${next}`)).text());
      expect(rest.at(-1)?.data).toBe("[DONE]");
      return chunksOf([...frames, ...rest]);
    };
    const first = await answer("rename", { decision: "edit", input: { title: "Edited" } });
    expect(first.find((c) => c.type === "tool-output-available")).toMatchObject({ output: { title: "Edited" } });
    expect((await readSession(id)).title).toBe("Edited");

    const second = await answer("rename again", { decision: "always" });
    expect(second.find((c) => c.type === "tool-output-available")).toMatchObject({ output: { title: "Second" } });

    const third = await answer("and again", null); // no approval asked: "always" holds for the session
    expect(third.some((c) => c.type === "tool-approval-request")).toBe(false);
    expect(third.find((c) => c.type === "tool-output-available")).toMatchObject({ output: { title: "Third" } });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(6);
  });

  it("survives eviction of the Durable Object while waiting, then continues the same turn", async () => {
    const { evictDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      {
        toolCalls: [
          { name: "get_time", arguments: { market: "cn" } },
          { name: "rename_session", arguments: { title: "After eviction" } },
        ],
      },
      { text: "renamed after a restart" },
    ]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `rename ${key}` });
    const { frames, reader } = await readUntil(
      res.body as ReadableStream<Uint8Array>,
      (c) => c.type === "tool-approval-request",
    );
    const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as { approvalId: string };
    await reader.cancel();
    const stub = await getAgentByName(testEnv.SessionAgent, id);
    await evictDurableObject(stub);
    expect((await readSession(id)).messages[1]?.metadata?.status).toBe("awaiting_approval");
    expect((await postJson(`/api/sessions/${id}/approvals/${request.approvalId}`, { decision: "allow" })).status).toBe(
      200,
    );
    const session = await eventually(async () => {
      const s = await readSession(id);
      return s.messages[1]?.metadata?.status === "done" ? s : undefined;
    });
    expect(session.title).toBe("After eviction");
    const replay = chunksOf(parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text()));
    // get_time ran once (before eviction), rename once (after), and the model got both results.
    expect(replay.filter((c) => c.type === "tool-output-available")).toHaveLength(2);
    expect(replay.filter((c) => c.type === "start")).toHaveLength(1);
    const lastRequest = (await modelRequests(key)).at(-1);
    expect(lastRequest?.body.messages.filter((m) => m.role === "tool")).toHaveLength(2);
  });
});

describe("provider faults", () => {
  it("switches to the fallback model on a 500 before any output", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ status: 500, body: { error: { message: "boom" } } }, { text: "from the fallback" }]);
    const { frames } = await sendAndRead(id, `hello ${key}`);
    const chunks = chunksOf(frames);
    expect(chunks.find((c) => c.type === "data-retry")).toMatchObject({
      data: { reason: "upstream", status: 500, from: "scripted", to: "scripted-fallback" },
    });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { model: "scripted-fallback" } });
    expect((await modelRequests(key)).map((r) => r.body.model)).toEqual(["scripted", "scripted-fallback"]);
  });

  it("never masks a configuration error: 401 ends the turn with a diagnosis, no fallback", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ status: 401, body: { error: { message: "invalid api key" } } }]);
    const { frames } = await sendAndRead(id, `你好 ${key}`);
    const chunks = chunksOf(frames);
    const error = chunks.find((c) => c.type === "error") as { errorText: string };
    expect(error.errorText).toContain("LLM_API_KEY");
    expect(error.errorText).toContain("401");
    expect(chunks.some((c) => c.type === "data-retry")).toBe(false);
    expect(await modelRequests(key)).toHaveLength(1);
  });

  it("ends a stream that stalls after output with an idle-timeout diagnosis", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "partial answer that never ends", stallAfterChunks: 3 }]);
    const { frames } = await sendAndRead(id, `stall ${key}`);
    const chunks = chunksOf(frames);
    expect(chunks.some((c) => c.type === "text-delta")).toBe(true);
    expect((chunks.find((c) => c.type === "error") as { errorText: string }).errorText).toContain("idle");
    expect((await readSession(id)).messages[1]?.metadata?.status).toBe("error");
  });

  it("survives a malformed SSE chunk and finishes the turn", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "still a full answer", malformed: true }]);
    const { frames } = await sendAndRead(id, `glitch ${key}`);
    const chunks = chunksOf(frames);
    expect(chunks.at(-1)?.type).toBe("finish");
    expect(chunks.some((c) => c.type === "error")).toBe(false);
  });

  it("turns tool arguments that fail the schema into a tool error the model reads; the turn goes on", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "get_time", arguments: { market: "mars" } }] },
      { text: "I used a wrong market." },
    ]);
    const { frames } = await sendAndRead(id, `time on mars ${key}`);
    const chunks = chunksOf(frames);
    const error = chunks.find((c) => c.type === "tool-output-error") as { errorText: string };
    expect(error.errorText).toMatch(/^invalid_input: invalid arguments for get_time: market/);
    expect(chunks.at(-1)?.type).toBe("finish");
    const toolMessage = (await modelRequests(key))[1]?.body.messages.find((m) => m.role === "tool");
    expect(JSON.stringify(toolMessage?.content)).toContain("invalid_input");
  });
});

describe("system notifications", () => {
  it("reports a finished task in a turn of its own, once per id, after any running turn", async () => {
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { text: "working on it ".repeat(10), chunkDelayMs: 20, chunkSize: 5 },
      { text: "Your screening finished: 3 candidates." },
    ]);
    const running = await postJson(`/api/sessions/${id}/messages`, { text: `screen ${key}` });
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    expect(await stub.notify({ id: "task_1", text: `Screening task_1 succeeded: 3 candidates ${key}` })).toEqual({
      queued: true,
    });
    expect(await stub.notify({ id: "task_1", text: "duplicate" })).toEqual({ queued: false });
    await running.text();
    const session = await eventually(async () => {
      const s = await readSession(id);
      return s.messages.length === 4 && s.messages[3]?.metadata?.status === "done" ? s : undefined;
    });
    expect(session.messages[2]).toMatchObject({ role: "user", metadata: { kind: "notification", taskId: "task_1" } });
    const answer = session.messages[3]?.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("");
    expect(answer).toBe("Your screening finished: 3 candidates.");
    const sent = (await modelRequests(key)).at(-1)?.body.messages.at(-1);
    expect(String(sent?.content)).toContain("[SYSTEM NOTIFICATION - NOT USER INPUT]");
    const replay = chunksOf(parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text()));
    expect(replay.find((c) => c.type === "data-notification")).toMatchObject({ data: { taskId: "task_1" } });
  });
});

describe("watching the session's turn state (GET …/turn)", () => {
  it("answers at once for a new key, long-polls until a turn it did not start begins, and serves share links", async () => {
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "Your backtest finished." }]);
    const first = (await (await call(`/api/sessions/${id}/turn?wait=0`)).json()) as { key: string; turn: unknown };
    expect(first).toEqual({ key: "", turn: null });
    // A long-poll holding the current key waits; a notification turn (no page started it) wakes it.
    const polling = call(`/api/sessions/${id}/turn?after=&wait=20`);
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await stub.notify({ id: "task_w", text: `Backtest task_w succeeded ${key}` });
    const woke = (await (await polling).json()) as { key: string; turn: { id: string; status: string } };
    expect(woke.turn.id).toMatch(/^t_/);
    expect(woke.key).toBe(`${woke.turn.id}:${woke.turn.status}`);
    // The page then follows that turn over the ordinary stream and sees it end.
    const replay = chunksOf(parseFrames(await (await call(`/api/sessions/${id}/stream?from=0`)).text()));
    expect(replay.find((c) => c.type === "data-notification")).toMatchObject({ data: { taskId: "task_w" } });
    expect(replay.at(-1)?.type).toBe("finish");
    const done = (await (
      await call(`/api/sessions/${id}/turn?after=${encodeURIComponent(woke.key)}&wait=5`)
    ).json()) as {
      key: string;
    };
    expect(done.key).toBe(`${woke.turn.id}:done`);
    // Unchanged key and no wait: the same key back at once.
    const same = (await (
      await call(`/api/sessions/${id}/turn?after=${encodeURIComponent(done.key)}&wait=0`)
    ).json()) as {
      key: string;
    };
    expect(same.key).toBe(done.key);
    // The share link reads the same state.
    const share = (await (await postJson(`/api/sessions/${id}/share`, {})).json()) as { token: string };
    const shared = (await (await call(`/api/shares/${share.token}/turn?wait=0`)).json()) as { key: string };
    expect(shared.key).toBe(done.key);
  });

  it("rejects a bad wait or key with a 400 envelope, and another owner's or an unknown share with 404", async () => {
    const id = await newSession();
    for (const q of ["wait=26", "wait=-1", "wait=abc", `after=${"x".repeat(81)}`]) {
      const res = await call(`/api/sessions/${id}/turn?${q}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
    }
    expect((await call(`/api/sessions/s_${"a".repeat(26)}/turn?wait=0`)).status).toBe(404);
    expect((await call(`/api/shares/shr_nope/turn?wait=0`)).status).toBe(404);
  });
});

describe("context governance in the session", () => {
  it("sends the stored compaction summary instead of the covered messages", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "first answer" }, { text: "second answer" }]);
    await sendAndRead(id, `first question about 600519 ${key}`);
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await runInDurableObject(stub, (instance: SessionAgent) => {
      instance["store"].setCompaction("用户在研究 600519 的吸筹阶段。", 2);
    });
    await sendAndRead(id, `second question ${key}`);
    const sent = (await modelRequests(key))[1]?.body.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(String(sent[1]?.content)).toContain("[对话摘要]");
    expect(JSON.stringify(sent)).not.toContain("first question about 600519");
    const session = (await (await call(`/api/sessions/${id}`)).json()) as {
      compaction: { summary: string; compactedThrough: number; count: number };
      messages: unknown[];
    };
    expect(session.compaction).toEqual({ summary: "用户在研究 600519 的吸筹阶段。", compactedThrough: 2, count: 1 });
    expect(session.messages).toHaveLength(4); // non-destructive: the UI keeps the whole history
  });

  it("writes a redacted JSONL trace per turn and records usage with cost", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      {
        reasoning: "check the clock",
        toolCalls: [{ name: "get_time", arguments: { market: "cn" } }],
        usage: { prompt: 1000, completion: 100 },
      },
      { text: "done", usage: { prompt: 1200, completion: 50 } },
    ]);
    const { frames } = await sendAndRead(id, `clock please, my api_key is sk-123 ${key}`);
    const usage = chunksOf(frames).filter((c) => c.type === "data-usage") as { data: { costUsd: number } }[];
    expect(usage[0]?.data.costUsd).toBeCloseTo((1000 * 2 + 100 * 8) / 1_000_000, 9);
    const trace = await call(`/api/sessions/${id}/trace`);
    expect(trace.status).toBe(200);
    const lines = (await trace.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; tool?: string; ms?: number; status?: string });
    expect(lines.map((l) => l.type)).toEqual(["init", "thinking", "tool_result", "final"]);
    expect(lines[2]).toMatchObject({ tool: "get_time", status: "ok", ms: expect.any(Number) });
    expect((await call(`/api/sessions/${id}/trace?turn=t_0000000000000000000000000a`)).status).toBe(404);
    expect((await call(`/api/sessions/${id}/trace?turn=nope`)).status).toBe(400);
    const summary = (await (await call("/api/usage?days=7")).json()) as {
      totals: { turns: number; inputTokens: number; costUsd: number };
    };
    expect(summary.totals.inputTokens).toBeGreaterThanOrEqual(2200);
    expect(summary.totals.costUsd).toBeGreaterThan(0);
    expect((await call("/api/usage?days=0")).status).toBe(400);
    const session = (await (await call(`/api/sessions/${id}`)).json()) as {
      usage: { costUsd: number; inputTokens: number };
    };
    expect(session.usage).toMatchObject({ inputTokens: 2200, costUsd: (2200 * 2 + 150 * 8) / 1_000_000 });
  });

  it("serves a spilled result to the owner and keeps a 10,000-message session loadable", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const big = JSON.stringify({ rows: Array.from({ length: 50_000 }, (_, i) => `row ${i} ${"x".repeat(90)}`) });
    await testEnv.SPILLS.put(`spills/${id}/t_0000000000000000000000000a/call_1.json`, big);
    const res = await call(`/api/sessions/${id}/spills/t_0000000000000000000000000a/call_1`);
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBe(big.length);
    const other = await newSession();
    expect((await call(`/api/sessions/${other}/spills/t_0000000000000000000000000a/call_1`)).status).toBe(404);
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await runInDurableObject(stub, (instance: SessionAgent) => {
      const store = instance["store"];
      for (let i = 0; i < 10_000; i++)
        store.appendMessage(
          { id: `m_${i}`, role: i % 2 ? "assistant" : "user", parts: [{ type: "text", text: `message ${i}` }] },
          0,
        );
    });
    // The latest page comes first; the older pages, walked by their cursors, hold every message once.
    type Page = { messages: { id: string }[]; page: { limit: number; older: string | null } };
    const first = (await (await call(`/api/sessions/${id}`)).json()) as Page;
    expect(first.messages).toHaveLength(200);
    expect(first.messages.at(-1)?.id).toBe("m_9999");
    const ids = first.messages.map((m) => m.id);
    let older = first.page.older;
    while (older) {
      const page = (await (await call(`/api/sessions/${id}?limit=500&before=${older}`)).json()) as Page;
      ids.unshift(...page.messages.map((m) => m.id));
      older = page.page.older;
    }
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids[0]).toBe("m_0");
  });
});

describe("what survives a reload", () => {
  it("keeps a failed turn's diagnosis and each tool's run time", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
      { status: 401, body: { error: { message: "bad key" } } },
    ]);
    const { frames } = await sendAndRead(id, `time ${key}`);
    expect(chunksOf(frames).find((c) => c.type === "tool-output-available")).toMatchObject({
      toolMetadata: { ms: expect.any(Number) },
    });
    const session = await readSession(id);
    expect(session.messages[1]?.metadata).toMatchObject({
      status: "error",
      error: expect.stringContaining("LLM_API_KEY"),
    });
  });
});

describe("size discipline", () => {
  it("stores 3 MB of text, reasoning and tool arguments without a row over 1 MB, and reads them back whole", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { getAgentByName } = await import("agents");
    const { largestRowBytes } = await import("./turn-helpers");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "small answer" }]);
    await sendAndRead(id, `seed ${key}`);
    const reasoning = "想".repeat(1_000_000); // 3 MB of UTF-8
    const text = "a".repeat(3_000_000);
    const args = { content: "x".repeat(3_000_000) };
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    const restored = await runInDurableObject(stub, (instance: SessionAgent) => {
      const turns = instance["turns"];
      const store = instance["store"];
      const turnId = turns.lastTurn()?.id ?? "";
      const idx = turns.nextEventIndex();
      turns.appendEvent(idx, turnId, JSON.stringify({ type: "text-delta", id: "t", delta: text }));
      turns.appendEvent(
        idx + 1,
        turnId,
        JSON.stringify({ type: "tool-input-available", toolCallId: "c", toolName: "write_file", input: args }),
      );
      turns.appendModelMessages(turnId, [
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: reasoning },
            { type: "text", text },
            { type: "tool-call", toolCallId: "c", toolName: "write_file", input: args },
          ],
        },
      ]);
      store.appendMessage(
        {
          id: "m_big",
          role: "assistant",
          parts: [
            { type: "reasoning", text: reasoning },
            { type: "text", text },
          ],
        },
        Date.now(),
      );
      const events = turns.eventsOf(turnId, idx).map((e) => JSON.parse(e.chunk) as Record<string, unknown>);
      const model = turns.modelMessages().at(-1)?.message;
      return { largest: largestRowBytes(instance["ctx"].storage.sql), events, model: JSON.stringify(model) };
    });
    expect(restored.largest.bytes, restored.largest.table).toBeLessThanOrEqual(1024 * 1024);
    expect(restored.events[0]?.delta).toBe(text);
    expect(restored.events[1]?.input).toEqual(args);
    expect(restored.model).toContain(reasoning);
    expect(restored.model).toContain(args.content);
    const session = await readSession(id);
    const big = session.messages.find((m) => m.id === "m_big");
    expect(big?.parts).toEqual([
      { type: "reasoning", text: reasoning },
      { type: "text", text },
    ]);
  }, 60_000);
});
