/**
 * Full turns inside workerd: the session DO runs the loop against the scripted OpenAI-compatible
 * model on loopback (real provider code, real SSE), stores every event, and streams the AI SDK UI
 * message protocol to any client.
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
