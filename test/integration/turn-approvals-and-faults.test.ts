/**
 * Turns inside workerd that pause or fail: approvals (allow, always, edit; surviving the Durable
 * Object's eviction while waiting) and provider faults (fallback, 401, idle timeout, malformed SSE,
 * tool arguments that fail their schema).
 */
import { describe, expect, it } from "vitest";
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
  readUntil,
  script,
  sendAndRead,
} from "./turn-helpers";

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
