/**
 * Runtime overhead per round: our governed loop (`runTurn`: events, batches, approvals, persistence
 * hooks) against a bare `streamText` tool loop, both on the same zero-latency scripted model.
 */
import { isStepCount, streamText, tool, type ModelMessage } from "ai";
import { it } from "vitest";
import { z } from "zod";
import { selectTailStart } from "../worker/runtime/context/compaction";
import { compactionThreshold } from "../worker/runtime/context/model-metadata";
import { requestTokens } from "../worker/runtime/context/tokens";
import { createModels } from "../worker/runtime/model";
import { toolSchemas } from "../worker/runtime/stream-round";
import { TOOLS } from "../worker/tools/registry";
import { runHarnessTurn } from "../test/support/runtime-harness";
import { startScriptedModel } from "../test/support/scripted-model/server";
import { median, record } from "./support/record";

const TURNS = 60;

it("runtime overhead per round vs a bare streamText loop", async () => {
  const server = await startScriptedModel();
  const models = createModels({ baseURL: server.url, apiKey: undefined, model: "scripted" }, undefined);
  const script = (key: string) =>
    server.push(
      [
        { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
        { text: "It is trading hours in Shanghai." },
      ],
      key,
    );

  const schemas = toolSchemas(TOOLS);
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    // Alternate so drift on a shared machine hits both equally.
    script(`<<o-${i}>>`);
    let t = performance.now();
    await runHarnessTurn({ models, text: `time? <<o-${i}>>` });
    ours.push((performance.now() - t) / 2);

    script(`<<b-${i}>>`);
    t = performance.now();
    const result = streamText({
      model: models.primary.model,
      system: "You are a test.",
      messages: [{ role: "user", content: `time? <<b-${i}>>` }],
      // The same tool schemas the runtime sends (same request size), with get_time executed by the SDK.
      tools: {
        ...schemas,
        get_time: tool({
          inputSchema: z.object({ market: z.enum(["cn", "us"]) }),
          execute: async ({ market }) => ({ market }),
        }),
      },
      stopWhen: isStepCount(2),
      maxRetries: 0,
    });
    for await (const _ of result.fullStream) {
      // consume
    }
    bare.push((performance.now() - t) / 2);
  }
  await server.close();
  const o = median(ours.slice(5));
  const b = median(bare.slice(5));
  record({
    id: "runtime_overhead_ratio",
    name: "runTurn ms/round ÷ bare streamText ms/round",
    value: Math.round((o / b) * 1000) / 1000,
    unit: "×",
    goal: 1.15,
    baseline: Math.round(b * 1000) / 1000,
    ratio: o / b,
  });
  record({
    id: "runtime_round_ms",
    name: "runTurn per round (zero-latency model)",
    value: Math.round(o * 1000) / 1000,
    unit: "ms",
  });
});

it("compaction decision and tail selection on a 1,000-message session", () => {
  const messages: ModelMessage[] = [];
  for (let i = 0; i < 250; i++) {
    messages.push({ role: "user", content: `分析 600${String(i % 1000).padStart(3, "0")} 的吸筹阶段，成交量如何？` });
    messages.push({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "analyze_stock", input: { code: "600519" } }],
    });
    messages.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `c${i}`,
          toolName: "analyze_stock",
          output: {
            type: "json",
            value: {
              phase: "ACC_B",
              events: Array.from({ length: 8 }, (_, k) => ({
                type: "ST",
                date: `2026-0${(k % 9) + 1}-10`,
                price: 10 + k,
              })),
            },
          },
        },
      ],
    });
    messages.push({
      role: "assistant",
      content: [{ type: "text", text: "阶段 B：交易区间 10.2–12.8，最近一次二次测试缩量，支撑有效。".repeat(3) }],
    });
  }
  const schemas = toolSchemas(TOOLS);
  const samples: number[] = [];
  for (let run = 0; run < 60; run++) {
    const fresh = structuredClone(messages); // cold: no memoised token counts
    const t = performance.now();
    const tokens = requestTokens("system prompt", schemas, fresh);
    const start = tokens > compactionThreshold(64_000) ? selectTailStart(fresh) : null;
    samples.push(performance.now() - t);
    if (start === null) throw new Error("expected a compaction on this session");
  }
  record({
    id: "compaction_1000_ms",
    name: "compaction decision + tail selection, 1,000 messages",
    value: Math.round(median(samples.slice(10)) * 1000) / 1000,
    unit: "ms",
    goal: 5,
  });
});
