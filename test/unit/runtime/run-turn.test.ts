/**
 * The loop in plain Node: the real OpenAI-compatible provider against the scripted model server on
 * loopback, and the offline rule model, with in-memory ports.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModels } from "../../../worker/runtime/model";
import { MAX_TOOL_ROUNDS } from "../../../worker/runtime/turn-types";
import { startScriptedModel, type ScriptedModel } from "../../support/scripted-model/server";
import { runHarnessTurn } from "../../support/runtime-harness";

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(async () => {
  await server.close();
});

const primaryOnly = () => createModels({ baseURL: server.url, apiKey: undefined, model: "scripted" }, undefined);

describe("runTurn with an OpenAI-compatible model", () => {
  it("retries the same model after a 429 (no fallback configured) and honours retry-after", async () => {
    server.push([{ status: 429, headers: { "retry-after-ms": "30" } }, { text: "second time lucky" }], "k-429");
    const run = await runHarnessTurn({ models: primaryOnly(), text: "hello k-429" });
    expect(run.result.status).toBe("done");
    const retry = run.chunks.find((c) => c.type === "data-retry");
    expect(retry).toMatchObject({
      data: { reason: "rate_limited", status: 429, from: "scripted", to: "scripted", delayMs: 30 },
    });
    expect(server.requests("k-429")).toHaveLength(2);
  });

  it("gives up after the retry budget with a diagnosis in the user's language", async () => {
    server.push([{ status: 503 }, { status: 503 }, { status: 503 }], "k-503");
    const run = await runHarnessTurn({ models: primaryOnly(), text: "你好 k-503", limits: { maxModelRetries: 2 } });
    expect(run.result.status).toBe("error");
    const error = run.chunks.find((c) => c.type === "error") as { errorText: string };
    expect(error.errorText).toContain("模型服务内部错误");
    expect(server.requests("k-503")).toHaveLength(3);
  });

  it("a connection lost after output ends the round as 'connection lost', never as an HTTP status; no retry", async () => {
    server.push(
      [{ text: "a partial answer that goes on and on", dropConnection: true, afterChunks: 4 }],
      "k-drop-after",
    );
    const run = await runHarnessTurn({ models: primaryOnly(), text: "hello k-drop-after" });
    expect(run.result.status).toBe("error");
    const error = run.chunks.find((c) => c.type === "error") as { errorText: string };
    expect(error.errorText).toContain("connection to the model server was lost");
    expect(error.errorText).not.toMatch(/HTTP|400|rejected/);
    expect(run.chunks.some((c) => c.type === "data-retry")).toBe(false);
    expect(server.requests("k-drop-after")).toHaveLength(1);
  });

  it("a connection lost before any output is retried", async () => {
    server.push([{ text: "never seen", dropConnection: true }, { text: "second try" }], "k-drop-before");
    const run = await runHarnessTurn({ models: primaryOnly(), text: "hello k-drop-before" });
    expect(run.result.status).toBe("done");
    expect(run.chunks.find((c) => c.type === "data-retry")).toMatchObject({ data: { reason: "connection" } });
    expect(server.requests("k-drop-before")).toHaveLength(2);
  });

  it("a malformed SSE chunk raises a visible warning part and the turn finishes", async () => {
    server.push([{ text: "still a full answer", malformed: true }], "k-malformed");
    const run = await runHarnessTurn({ models: primaryOnly(), text: "hello k-malformed" });
    expect(run.result.status).toBe("done");
    const warning = run.chunks.find((c) => c.type === "data-warning") as { data: { kind: string; message: string } };
    expect(warning?.data.kind).toBe("malformed_chunk");
    expect(warning?.data.message).toMatch(/could not be read/);
    expect(run.chunks.at(-1)?.type).toBe("finish");
  });

  it("answers 3 MB of invalid tool JSON with an error quoting a bounded excerpt (stream and model alike)", async () => {
    const raw = `{"market": "${"x".repeat(3_000_000)}`;
    server.push(
      [{ toolCalls: [{ name: "get_time", arguments: raw }], chunkSize: 262_144 }, { text: "ok" }],
      "k-bigjson",
    );
    const run = await runHarnessTurn({
      models: primaryOnly(),
      text: "hello k-bigjson",
      limits: { chunkIdleMs: 60_000 },
    });
    expect(run.result.status).toBe("done");
    const error = run.chunks.find((c) => c.type === "tool-output-error") as { errorText: string };
    expect(error.errorText).toMatch(/^invalid_input: arguments are not valid JSON/);
    expect(error.errorText.length).toBeLessThan(3000);
    const input = run.chunks.find((c) => c.type === "tool-input-available") as { input: unknown };
    expect(JSON.stringify(input.input).length).toBeLessThan(3000);
    expect(JSON.stringify(run.appended).length).toBeLessThan(20_000);
    const sent = server.requests("k-bigjson")[1]?.body as { messages: unknown[] } | undefined;
    expect(JSON.stringify(sent?.messages).length).toBeLessThan(50_000);
  });

  it("stops after MAX_TOOL_ROUNDS with the seed's notice, every call answered", async () => {
    const loop = Array.from({ length: MAX_TOOL_ROUNDS }, () => ({
      toolCalls: [{ name: "get_time", arguments: { market: "cn" } }],
    }));
    server.push(loop, "k-rounds");
    const run = await runHarnessTurn({ models: primaryOnly(), text: "loop k-rounds" });
    expect(run.result.status).toBe("rounds_exceeded");
    expect(run.result.rounds).toBe(MAX_TOOL_ROUNDS);
    const text = run.chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(text).toContain("rounds exceeded");
    const calls = run.appended.flatMap((m) =>
      m.role === "assistant" && Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-call") : [],
    );
    const results = run.appended.flatMap((m) => (m.role === "tool" ? m.content : []));
    expect(calls).toHaveLength(MAX_TOOL_ROUNDS);
    expect(results).toHaveLength(MAX_TOOL_ROUNDS);
  });

  it("cancels at once while the model is still streaming", async () => {
    server.push([{ text: "slow ".repeat(400), chunkDelayMs: 20, chunkSize: 3 }], "k-cancel");
    const controller = new AbortController();
    let deltasAtCancel = 0;
    const run = await runHarnessTurn({
      models: primaryOnly(),
      text: "go k-cancel",
      signal: controller.signal,
      onChunk: (c) => {
        if (c.type === "text-delta" && deltasAtCancel === 0) {
          deltasAtCancel = 1;
          controller.abort(new Error("user"));
        }
      },
    });
    expect(run.result.status).toBe("cancelled");
    // The model request itself was aborted (not left to finish its ~13 s answer) and nothing more streamed.
    await expect.poll(() => server.requests("k-cancel")[0]?.clientAborted).toBe(true);
    expect(run.chunks.filter((c) => c.type === "text-delta")).toHaveLength(1);
    expect(run.chunks.at(-1)).toEqual({ type: "abort", reason: "cancelled" });
    expect(run.appended).toEqual([]); // nothing after the abort is stored as the answer
  });

  it("recovers tool calls a model writes as <tool_call> text", async () => {
    server.push(
      [
        { text: 'Let me check.<tool_call>{"name": "get_time", "arguments": {"market": "us"}}</tool_call>' },
        { text: "It is morning in New York." },
      ],
      "k-text-call",
    );
    const run = await runHarnessTurn({ models: primaryOnly(), text: "time? k-text-call" });
    expect(run.result.status).toBe("done");
    const text = run.chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(text).toBe("Let me check.It is morning in New York.");
    expect(run.chunks.find((c) => c.type === "tool-output-available")).toMatchObject({
      output: { market: "us", timezone: "America/New_York" },
    });
  });

  it("runs consecutive concurrency-safe calls together and approval tools alone, in order", async () => {
    server.push(
      [
        {
          toolCalls: [
            { name: "get_time", arguments: { market: "cn" } },
            { name: "get_time", arguments: { market: "us" } },
            { name: "rename_session", arguments: { title: "x" } },
            { name: "check_background_tasks", arguments: {} },
          ],
        },
        { text: "done" },
      ],
      "k-batch",
    );
    const order: string[] = [];
    const run = await runHarnessTurn({
      models: primaryOnly(),
      text: "batch k-batch",
      decide: (call) => (order.push(`approve:${call.toolName}`), { decision: "deny", reason: "not now" }),
      onChunk: (c) => {
        if (c.type === "tool-output-available" || c.type === "tool-output-denied")
          order.push(`${c.type}:${c.toolCallId}`);
      },
    });
    expect(run.result.status).toBe("done");
    const callIds = (run.chunks.filter((c) => c.type === "tool-input-available") as { toolCallId: string }[]).map(
      (c) => c.toolCallId,
    );
    expect(order.slice(0, 2).sort()).toEqual(
      [`tool-output-available:${callIds[0]}`, `tool-output-available:${callIds[1]}`].sort(),
    );
    expect(order.slice(2)).toEqual([
      "approve:rename_session",
      `tool-output-denied:${callIds[2]}`,
      `tool-output-available:${callIds[3]}`,
    ]);
    const tool = run.appended.find((m) => m.role === "tool");
    expect(JSON.stringify(tool)).toContain("execution-denied");
  });
});

describe("runTurn with the offline rule model", () => {
  it("calls the tool an intent asks for, then answers from its result, labelled offline", async () => {
    const run = await runHarnessTurn({ models: createModels(undefined, undefined), text: "现在开盘了吗？" });
    expect(run.result).toMatchObject({ status: "done", modelId: "offline-rules", rounds: 2 });
    expect(run.chunks.find((c) => c.type === "tool-input-available")).toMatchObject({
      toolName: "get_time",
      input: { market: "cn" },
    });
    const text = run.chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    // the result's Shanghai time and session, said in the question's language
    expect(text).toContain("上海时间 2026-11-30");
    expect(text).toContain("正在交易");
    expect(text).toContain("离线规则模型");
  });

  it("explains what it can do when no tool fits", async () => {
    const run = await runHarnessTurn({ models: createModels(undefined, undefined), text: "tell me a joke" });
    expect(run.result.rounds).toBe(1);
    const text = run.chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(text).toContain("Offline rule model");
    expect(text).toContain("is the A-share market open?"); // examples, not a list of internal tool names
    expect(text).not.toContain("get_time");
  });
});

describe("offline model and skills", () => {
  it("runs /checkup by loading the skill, then calling the tools its instructions name", async () => {
    const { fakeToolDeps } = await import("../../support/runtime-harness");
    const { BUILTIN_SKILLS } = await import("../../../worker/runtime/skills/builtin");
    const { bindTool } = await import("../../../worker/tools/bind");
    const { ok } = await import("../../../worker/lib/result");
    const { portfolioSpec } = await import("../../../worker/tools/specs/portfolio");
    const { TOOLS } = await import("../../../worker/tools/registry");
    const seen: unknown[] = [];
    const tools = [
      ...TOOLS.filter((t) => t.spec.name !== "portfolio"),
      bindTool(
        portfolioSpec,
        async (input) => (seen.push(input), ok({ positions: [], message: "no holdings" }) as never),
      ),
    ];
    const deps = {
      ...fakeToolDeps(),
      skills: {
        list: async () => [...BUILTIN_SKILLS],
        get: async (_u: string, n: string) => BUILTIN_SKILLS.find((s) => s.name === n) ?? null,
      },
    };
    const run = await runHarnessTurn({
      models: createModels(undefined, undefined),
      text: "/checkup",
      tools,
      toolDeps: deps,
    });
    const called = run.chunks
      .filter((c) => c.type === "tool-input-available")
      .map((c) => (c as { toolName: string }).toolName);
    expect(called).toEqual(["execute_skill", "portfolio"]);
    expect(seen[0]).toMatchObject({ mode: "diagnose" });
    expect(run.result.status).toBe("done");
  });
});
