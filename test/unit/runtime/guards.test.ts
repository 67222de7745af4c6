/** Guards and spills through the loop: doom-loop stops, the loop guard's corrective retries, R2-style spills. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ok } from "../../../worker/lib/result";
import { SPILL_THRESHOLD } from "../../../worker/runtime/context/spill";
import { detectDoomLoop, jaccard3 } from "../../../worker/runtime/guards/doom-loop";
import { expectationFor, isPlanOnly } from "../../../worker/runtime/guards/loop-guard";
import type { SpillStore } from "../../../worker/ports/spill-store";
import { bindTool } from "../../../worker/tools/bind";
import { TOOLS } from "../../../worker/tools/registry";
import { defineToolSpec } from "../../../worker/tools/specs/define";
import { runHarnessTurn } from "../../support/runtime-harness";
import { useScriptedModel } from "../../support/scripted-model/fixture";

const scripted = useScriptedModel("scripted");
const models = () => scripted.models();

describe("doom-loop detection", () => {
  it("trips on the third identical call within six, and on near-identical long arguments", () => {
    const a = { toolName: "analyze_stock", args: '{"code":"600519"}' };
    expect(detectDoomLoop([a], a)).toEqual({ tripped: false });
    expect(detectDoomLoop([a, a], a)).toMatchObject({ tripped: true, how: "exact", count: 3 });
    const others = Array.from({ length: 5 }, (_, i) => ({ toolName: "get_time", args: `{"i":${i}}` }));
    expect(detectDoomLoop([a, ...others, a], a)).toEqual({ tripped: false }); // the first one fell out of the window
    const long = (n: number) => ({
      toolName: "web_search",
      args: `{"query":"wyckoff accumulation schematic spring test volume ${n}"}`,
    });
    expect(jaccard3(long(1).args, long(2).args)).toBeGreaterThanOrEqual(0.8);
    expect(detectDoomLoop([long(1), long(2)], long(3))).toMatchObject({ tripped: true, how: "fuzzy" });
    const poll = { toolName: "check_background_tasks", args: "{}" };
    expect(detectDoomLoop([poll, poll, poll], poll)).toEqual({ tripped: false });
  });

  it("stops the batch with a tool error the model reads, and the turn goes on", async () => {
    const key = "[doom-1]";
    const same = { name: "get_time", arguments: { market: "cn" } };
    scripted
      .server()
      .push(
        [
          { toolCalls: [same, same] },
          { toolCalls: [same, { name: "check_background_tasks", arguments: {} }] },
          { text: "I will stop asking." },
        ],
        key,
      );
    const run = await runHarnessTurn({ models: models(), text: `clock ${key}` });
    expect(run.result.status).toBe("done");
    expect(run.chunks.find((c) => c.type === "data-guard")).toMatchObject({
      data: { kind: "doom_loop", tool: "get_time", count: 3 },
    });
    const errors = run.chunks.filter((c) => c.type === "tool-output-error") as { errorText: string }[];
    expect(errors).toHaveLength(2); // the third get_time and everything after it in that batch
    expect(errors.every((e) => e.errorText.startsWith("doom_loop:"))).toBe(true);
    const lastTool = run.appended.filter((m) => m.role === "tool").at(-1);
    expect(lastTool?.role === "tool" && lastTool.content.length).toBe(2); // every call still answered
  });
});

describe("loop guard", () => {
  it("knows which questions need which tool", () => {
    const tools = new Set(["analyze_stock", "portfolio"]);
    expect(expectationFor("分析一下 600519", [], tools)?.tool).toBe("analyze_stock");
    expect(expectationFor("我有什么持仓？", [], tools)?.tool).toBe("portfolio");
    expect(expectationFor("做一下体检", ["看看我的持仓"], tools)?.tool).toBe("portfolio");
    expect(expectationFor("做一下体检", [], tools)).toBeUndefined();
    expect(expectationFor("分析一下 600519", [], new Set())).toBeUndefined();
    expect(isPlanOnly("我将先调用 analyze_stock 获取数据。")).toBe(true);
    expect(isPlanOnly("600519 is in phase B because volume dried up on the test at 1680 and …".repeat(3))).toBe(false);
  });

  it("retries with a corrective message when the model answers without the required tool", async () => {
    const key = "[guard-1]";
    const analyze = defineToolSpec({
      name: "analyze_stock",
      title: { zh: "个股诊断", en: "Analyze" },
      description: "test double with the real name",
      input: z.object({ code: z.string() }),
      output: z.object({ code: z.string(), phase: z.string() }),
      annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
    });
    const tools = [
      ...TOOLS.filter((t) => t.spec.name !== "analyze_stock"),
      bindTool(analyze, async (input) => ok({ code: input.code, phase: "ACC_B" })),
    ];
    scripted
      .server()
      .push(
        [
          { text: "我将先分析一下。" },
          { toolCalls: [{ name: "analyze_stock", arguments: { code: "600519" } }] },
          { text: "600519 处于 ACC_B。" },
        ],
        key,
      );
    const run = await runHarnessTurn({ models: models(), text: `分析一下 600519 ${key}`, tools });
    expect(run.chunks.find((c) => c.type === "data-retry")).toMatchObject({
      data: { reason: "loop_guard", tool: "analyze_stock", attempt: 1, planOnly: true },
    });
    const second = scripted.server().requests(key)[1]?.body?.messages.at(-1);
    expect(String(second?.content)).toContain("你只给出了计划");
    expect(run.chunks.some((c) => c.type === "data-guard")).toBe(false);

    scripted
      .server()
      .push([{ text: "凭印象，它在上涨。" }, { text: "还是上涨。" }, { text: "真的在上涨。" }], "[guard-2]");
    const stubborn = await runHarnessTurn({ models: models(), text: `分析一下 600519 [guard-2]`, tools });
    expect(stubborn.chunks.filter((c) => c.type === "data-retry")).toHaveLength(2);
    expect(stubborn.chunks.find((c) => c.type === "data-guard")).toMatchObject({
      data: { kind: "loop_guard", placement: "prefix" },
    });
    const text = stubborn.chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(text).toContain("⚠️");
  });
});

describe("spills", () => {
  it("sends a 5 MB tool result to the spill store and gives the model and UI a reference with preview and index", async () => {
    const key = "[spill-1]";
    const store = new Map<string, string>();
    const spills: SpillStore = { put: async (k, t) => void store.set(k, t), get: async (k) => store.get(k) ?? null };
    const big = defineToolSpec({
      name: "dump_bars",
      title: { zh: "导出", en: "Dump" },
      description: "test tool returning a huge result",
      input: z.object({}),
      output: z.object({ rows: z.array(z.string()), note: z.string() }),
      annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
    });
    const rows = Array.from({ length: 50_000 }, (_, i) => `row ${i} ${"x".repeat(90)}`);
    scripted.server().push([{ toolCalls: [{ name: "dump_bars", arguments: {} }] }, { text: "done" }], key);
    const run = await runHarnessTurn({
      models: models(),
      text: `dump ${key}`,
      tools: [bindTool(big, async () => ok({ rows, note: "all" }))],
      spills,
    });
    const output = (run.chunks.find((c) => c.type === "tool-output-available") as { output: Record<string, unknown> })
      .output;
    expect(output).toMatchObject({
      spilled: true,
      ref: expect.stringMatching(/^spills\/s_test\/t_test\//),
      index: { keys: ["rows", "note"], arrays: { rows: 50_000 } },
    });
    expect((output.preview as string).length).toBe(2_000);
    expect(JSON.stringify(output).length).toBeLessThan(SPILL_THRESHOLD / 10);
    expect(store.get(output.ref as string)?.length).toBeGreaterThan(5_000_000);
    const sent = JSON.stringify(scripted.server().requests(key)[1]?.body?.messages);
    expect(sent.length).toBeLessThan(20_000);
  });
});

describe("memory recall", () => {
  it("wraps this turn's question with recalled memories in the view only, and survives a failing recall", async () => {
    scripted.server().push([{ text: "noted" }], "[mem-1]");
    const run = await runHarnessTurn({
      models: models(),
      text: "what do I prefer? [mem-1]",
      memory: { recall: async () => ({ block: "- [偏好] 只做主板，不追高", ids: ["mem_1"] }) },
    });
    expect(run.result.status).toBe("done");
    const sent = scripted.server().requests("[mem-1]")[0]?.body?.messages.at(-1)?.content;
    expect(String(sent)).toBe(
      "<relevant-memories>\n- [偏好] 只做主板，不追高\n</relevant-memories>\n<current-user-message>\nwhat do I prefer? [mem-1]\n</current-user-message>",
    );
    scripted.server().push([{ text: "ok" }], "[mem-2]");
    const failing = await runHarnessTurn({
      models: models(),
      text: "hi [mem-2]",
      memory: { recall: async () => Promise.reject(new Error("D1 down")) },
    });
    expect(failing.result.status).toBe("done");
    expect(String(scripted.server().requests("[mem-2]")[0]?.body?.messages.at(-1)?.content)).toBe("hi [mem-2]");
  });
});

describe("tool results that are not JSON", () => {
  it("turn into a tool error the model reads instead of crashing the turn", async () => {
    const key = "[nonjson-1]";
    const weird = defineToolSpec({
      name: "weird_tool",
      title: { zh: "怪", en: "Weird" },
      description: "returns something JSON cannot encode",
      input: z.object({}),
      output: z.object({ n: z.unknown() }),
      annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
    });
    scripted
      .server()
      .push([{ toolCalls: [{ name: "weird_tool", arguments: {} }] }, { text: "that tool is broken" }], key);
    const run = await runHarnessTurn({
      models: models(),
      text: `go ${key}`,
      tools: [bindTool(weird, async () => ok({ n: 10n }) as never)],
    });
    expect(run.result.status).toBe("done");
    expect((run.chunks.find((c) => c.type === "tool-output-error") as { errorText: string }).errorText).toMatch(
      /^internal: weird_tool failed/,
    );
    expect(JSON.stringify(run.appended.find((m) => m.role === "tool"))).toContain("internal");
  });
});
