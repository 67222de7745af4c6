/**
 * Runtime overhead per round over in-memory fakes: our governed loop (`runTurn`: view preparation,
 * events, batches, approvals, persistence hooks into arrays) against a bare `streamText` tool loop,
 * both on the same zero-latency scripted model, the same tool schemas and the same `get_time`
 * handler (validated and run through `invokeTool`, so tool work is equal and only the loop differs),
 * interleaved turn by turn. The same comparison through the real session Durable Object is in
 * bench/workers/runtime.bench.ts.
 */
import { isStepCount, streamText, tool, type ModelMessage } from "ai";
import { it } from "vitest";
import { z } from "zod";
import { selectTailStart } from "../worker/runtime/context/compaction";
import { compactionThreshold } from "../worker/runtime/context/model-metadata";
import { requestTokens } from "../worker/runtime/context/tokens";
import { createModels } from "../worker/runtime/model";
import { toolSchemas } from "../worker/runtime/stream-round";
import { findTool, TOOLS } from "../worker/tools/registry";
import { startScriptedModel } from "../test/support/scripted-model/server";
import { invokeTool } from "../worker/tools/invoke-tool";
import { fakeToolDeps, runHarnessTurn } from "../test/support/runtime-harness";
import { median, record, timing } from "./support/record";

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
  const getTime = findTool("get_time");
  if (!getTime) throw new Error("get_time is not registered");
  const toolDeps = fakeToolDeps();
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
      // The same tool schemas the runtime sends (same request size), with get_time executed by the
      // SDK through the same validation and handler the runtime's executor uses.
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
    bare.push((performance.now() - t) / 2);
  }
  await server.close();
  const o = median(ours.slice(5));
  const b = median(bare.slice(5));
  const what =
    "wall time of one two-round turn (get_time call, then a text answer) ÷ 2, zero-latency scripted model over loopback HTTP; 5 warm-up turns dropped";
  record({
    id: "runtime_overhead_ratio",
    name: "runTurn ms/round ÷ bare streamText ms/round, in-memory fakes (same run, interleaved)",
    value: Math.round((o / b) * 1000) / 1000,
    unit: "×",
    goal: 1.1,
    baseline: Math.round(b * 1000) / 1000,
    ratio: o / b,
    timed: `median of runTurn (harness, in-memory ports) ÷ median of a bare streamText loop (stopWhen 2 steps), ${what}`,
  });
  record({
    id: "runtime_round_ms",
    name: "runTurn per round (zero-latency model, in-memory fakes)",
    ...timing(ours.slice(5)),
    unit: "ms",
    timed: `runTurn: ${what}`,
  });
  record({
    id: "runtime_bare_round_ms",
    name: "bare streamText loop per round (zero-latency model)",
    ...timing(bare.slice(5)),
    unit: "ms",
    timed: `streamText with the SDK executing get_time: ${what}`,
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
    ...timing(samples.slice(10)),
    unit: "ms",
    goal: 5,
    timed:
      "requestTokens over system + tool schemas + 1,000 fresh (structuredClone'd, so no memoised counts) messages, then selectTailStart; 10 warm-ups dropped",
  });
});
