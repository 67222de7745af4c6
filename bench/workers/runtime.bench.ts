/**
 * Session runtime figures measured inside workerd (Date.now advances with I/O, so each timing spans
 * real work): first SSE byte after POST, and loading a session that holds 10,000 messages.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { getAgentByName } from "agents";
import { it } from "vitest";
import type { SessionAgent } from "../../worker/session/session-agent";
import type { Metric } from "../support/record";

const bindings = env as typeof env & { LLM_BASE_URL: string; BENCH_COLLECTOR_URL: string };

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

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

it("first SSE byte after POST", async () => {
  const samples: number[] = [];
  const control = bindings.LLM_BASE_URL.replace(/\/v1$/, "");
  for (let i = 0; i < 40; i++) {
    const id = await newSession();
    await fetch(`${control}/__script`, {
      method: "POST",
      body: JSON.stringify({ key: `b-${id}`, responses: [{ text: "ok" }] }),
    });
    const started = Date.now();
    const res = await call(`/api/sessions/${id}/messages`, {
      method: "POST",
      body: JSON.stringify({ text: `hi b-${id}` }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    samples.push(Date.now() - started);
    while (!(await reader.read()).done) {
      // drain the turn so the next session starts clean
    }
  }
  await report({
    id: "first_byte_ms",
    name: "first SSE byte after POST (p50, workerd)",
    value: percentile(samples, 50),
    unit: "ms",
    goal: 20,
  });
  await report({
    id: "first_byte_p90_ms",
    name: "first SSE byte after POST (p90, workerd)",
    value: percentile(samples, 90),
    unit: "ms",
  });
});

it("session load with 10,000 stored messages", async () => {
  const id = await newSession();
  const stub = await getAgentByName<Env, SessionAgent>(env.SessionAgent, id);
  await runInDurableObject(stub, (instance: SessionAgent) => {
    const store = instance["store"];
    const now = Date.now();
    for (let i = 0; i < 10_000; i++) {
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
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = Date.now();
    const res = await call(`/api/sessions/${id}`);
    await res.arrayBuffer();
    samples.push(Date.now() - started);
  }
  await report({
    id: "session_load_10k_ms",
    name: "GET session with 10,000 messages (median, workerd)",
    value: percentile(samples, 50),
    unit: "ms",
    goal: 50,
  });
});
