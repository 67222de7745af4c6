/**
 * Session runtime figures measured inside workerd through the worker's own fetch handler and the real
 * session Durable Object (DO SQLite, D1, the scripted model on loopback at zero latency). workerd's
 * clock advances with I/O only, so each timing ends on I/O (the stream's read, the response body):
 * - time to first token: POST a message → the first `text-delta` event of its SSE stream (the `start`
 *   chunk, emitted before prompt set-up and the model call, is not the end point);
 * - runtime overhead per round: a two-round turn (get_time, then a text answer) POSTed to the
 *   session and its stream read to the end, against a bare `streamText` tool loop in the same isolate
 *   with the same tool schemas and the same get_time handler, interleaved;
 * - session load: `GET /api/sessions/:id` of a session holding 1,000 and 10,000 messages — the first
 *   read after the Durable Object was evicted (start-up, migrations check, recovery included) and
 *   warm reads.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { getAgentByName } from "agents";
import { isStepCount, streamText, tool } from "ai";
import { it } from "vitest";
import { z } from "zod";
import { createModels } from "../../worker/runtime/model";
import { toolSchemas } from "../../worker/runtime/stream-round";
import type { SessionAgent } from "../../worker/session/session-agent";
import { invokeTool } from "../../worker/tools/invoke-tool";
import { findTool, TOOLS } from "../../worker/tools/registry";
import { fakeToolDeps } from "../../test/support/runtime-harness";
import { growth, median, timing, type Metric } from "../support/record";

const bindings = env as typeof env & { LLM_BASE_URL: string; BENCH_COLLECTOR_URL: string };
const control = bindings.LLM_BASE_URL.replace(/\/v1$/, "");

async function report(metric: Metric): Promise<void> {
  await fetch(bindings.BENCH_COLLECTOR_URL, { method: "POST", body: JSON.stringify(metric) });
}

function call(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`http://bench.test${path}`, init));
}

async function newSession(): Promise<string> {
  const res = await call("/api/sessions", { method: "POST", body: "{}" });
  return ((await res.json()) as { id: string }).id;
}

async function script(key: string, responses: unknown[]): Promise<void> {
  await fetch(`${control}/__script`, { method: "POST", body: JSON.stringify({ key, responses }) });
}

/** Reads SSE frames until `stop` says so (or the stream ends); returns whether it stopped early. */
async function readUntil(body: ReadableStream<Uint8Array>, stop: (data: string) => boolean): Promise<boolean> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
        .join("\n");
      if (data && stop(data)) {
        // Drain the rest so the turn ends before the next one starts.
        while (!(await reader.read()).done) {
          // drain
        }
        return true;
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

it("time to first token after POST", async () => {
  const samples: number[] = [];
  for (let i = 0; i < 45; i++) {
    const id = await newSession();
    await script(`b-${id}`, [{ text: "ok, the answer" }]);
    const started = performance.now();
    const res = await call(`/api/sessions/${id}/messages`, {
      method: "POST",
      body: JSON.stringify({ text: `hi b-${id}` }),
    });
    let at = Number.NaN;
    const seen = await readUntil(res.body as ReadableStream<Uint8Array>, (data) => {
      if (!data.includes('"type":"text-delta"')) return false;
      at = performance.now() - started;
      return true;
    });
    if (!seen) throw new Error("the turn streamed no text-delta");
    if (i >= 5) samples.push(at);
  }
  await report({
    id: "first_token_ms",
    name: "time to first token after POST (workerd, session DO, zero-latency model)",
    ...timing(samples),
    unit: "ms",
    goal: 15,
    timed:
      "POST /api/sessions/:id/messages on a fresh session → the first text-delta event read from its SSE stream (the ownership check and the rate-limit take in the session DO — the take, the set-up reads and the memory recall in one D1 round trip —, turn opening, prompt and tool set-up, the model call); 40 sessions after 5 warm-ups",
  });
});

it("runtime overhead per round through the session Durable Object vs a bare streamText loop", async () => {
  const models = createModels({ baseURL: bindings.LLM_BASE_URL, apiKey: undefined, model: "scripted" }, undefined);
  const schemas = toolSchemas(TOOLS);
  const getTime = findTool("get_time");
  if (!getTime) throw new Error("get_time is not registered");
  const toolDeps = fakeToolDeps();
  const turn = [
    { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
    { text: "It is trading hours in Shanghai." },
  ];
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 45; i++) {
    // A fresh session per turn (created before the clock starts): the bare loop sends one message too.
    const id = await newSession();
    await script(`<<o-${i}>>`, turn);
    let t = performance.now();
    const res = await call(`/api/sessions/${id}/messages`, {
      method: "POST",
      body: JSON.stringify({ text: `time? <<o-${i}>>` }),
    });
    await readUntil(res.body as ReadableStream<Uint8Array>, () => false);
    const o = (performance.now() - t) / 2;

    await script(`<<b-${i}>>`, turn);
    t = performance.now();
    const result = streamText({
      model: models.primary.model,
      system: "You are a test.",
      messages: [{ role: "user", content: `time? <<b-${i}>>` }],
      tools: {
        ...schemas,
        get_time: tool({
          inputSchema: z.object({ market: z.enum(["cn", "us"]) }),
          execute: async (input, { abortSignal, toolCallId }) =>
            invokeTool(getTime, input, toolDeps, {
              sessionId: "s_bare",
              userId: "local",
              toolCallId,
              signal: abortSignal ?? new AbortController().signal,
            }),
        }),
      },
      stopWhen: isStepCount(2),
      maxRetries: 0,
    });
    for await (const _ of result.fullStream) {
      // consume
    }
    const b = (performance.now() - t) / 2;
    if (i >= 5) {
      ours.push(o);
      bare.push(b);
    }
  }
  const o = median(ours);
  const b = median(bare);
  const what =
    "wall time of one two-round turn (get_time call, then a text answer) ÷ 2, zero-latency scripted model over loopback; 40 turns, each in a fresh session created before the clock starts, after 5 warm-ups, interleaved";
  await report({
    id: "runtime_overhead_do_ratio",
    name: "session DO turn ms/round ÷ bare streamText ms/round (workerd, same run)",
    value: Math.round((o / b) * 1000) / 1000,
    unit: "×",
    goal: 1.1,
    baseline: Math.round(b * 1000) / 1000,
    ratio: o / b,
    timed: `median of POST /api/sessions/:id/messages with its SSE stream read to the end (ownership, DO SQLite writes of every event and message, usage, the answer folded and stored) ÷ median of a bare streamText loop in the same isolate; ${what}`,
  });
  await report({
    id: "runtime_do_round_ms",
    name: "session DO turn per round (workerd)",
    ...timing(ours),
    unit: "ms",
    timed: `POST …/messages through the worker and the session DO, stream read to the end: ${what}`,
  });
  await report({
    id: "runtime_do_bare_round_ms",
    name: "bare streamText loop per round (workerd)",
    ...timing(bare),
    unit: "ms",
    timed: `streamText with the SDK executing get_time, in the test isolate: ${what}`,
  });
});

async function sessionWith(count: number): Promise<string> {
  const id = await newSession();
  const stub = await getAgentByName<Env, SessionAgent>(env.SessionAgent, id);
  await runInDurableObject(stub, (instance: SessionAgent) => {
    const store = instance["store"];
    const now = Date.now();
    for (let i = 0; i < count; i++) {
      const user = i % 2 === 0;
      store.appendMessage(
        {
          id: `m_${i}`,
          role: user ? "user" : "assistant",
          parts: [
            {
              type: "text",
              text: user
                ? `分析 600${String(i % 1000).padStart(3, "0")} 的威科夫阶段`
                : "阶段 B，交易区间 10.2–12.8，最近事件 ST。".repeat(4),
            },
          ],
        },
        now,
      );
    }
  });
  return id;
}

it("session load at 1,000 and 10,000 stored messages, first read included", async () => {
  const sizes = [
    { label: "1k", count: 1_000 },
    { label: "10k", count: 10_000 },
  ];
  const ids = [];
  for (const size of sizes) ids.push(await sessionWith(size.count));
  const first = sizes.map(() => [] as number[]);
  const warm = sizes.map(() => [] as number[]);
  // Rounds over both sizes (interleaved): evict, first read, then four warm reads.
  for (let round = 0; round < 8; round++) {
    for (const [k, id] of ids.entries()) {
      await evictDurableObject(await getAgentByName<Env, SessionAgent>(env.SessionAgent, id));
      for (let r = 0; r < 5; r++) {
        const started = performance.now();
        const res = await call(`/api/sessions/${id}`);
        await res.arrayBuffer();
        (r === 0 ? first[k] : warm[k])?.push(performance.now() - started);
      }
    }
  }
  const smallestFirst = median(first[0] ?? []);
  const smallestWarm = median(warm[0] ?? []);
  for (const [k, size] of sizes.entries()) {
    const f = timing(first[k] ?? []);
    const w = timing(warm[k] ?? []);
    await report({
      id: `session_load_${size.label}_first_ms`,
      name: `GET session with ${size.label} messages, first read after eviction (workerd)`,
      ...f,
      unit: "ms",
      goal: 30,
      growth: growth(f.value, smallestFirst, sizes[0]?.label ?? ""),
      timed:
        "GET /api/sessions/:id right after evictDurableObject, body read: ownership (D1), the DO's start-up (constructor, migrations check, recovery), the latest page of 200 messages; 8 evictions",
    });
    await report({
      id: `session_load_${size.label}_ms`,
      name: `GET session with ${size.label} messages, warm (workerd)`,
      ...w,
      unit: "ms",
      goal: 30,
      growth: growth(w.value, smallestWarm, sizes[0]?.label ?? ""),
      timed:
        "GET /api/sessions/:id on a running DO, body read (the latest page of 200 messages); 4 reads after each of 8 first reads",
    });
  }
});
