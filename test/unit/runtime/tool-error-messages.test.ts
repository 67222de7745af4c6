/**
 * A tool error said in both languages (`details.messages`, e.g. an offline `not_found`) reaches the
 * stream in the turn's language and carries both in `toolMetadata.messages`, so the reading room shows
 * it in its own language whatever language the question was asked in.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { err } from "../../../worker/lib/result";
import { bindTool } from "../../../worker/tools/bind";
import { defineToolSpec } from "../../../worker/tools/specs/define";
import { runHarnessTurn } from "../../support/runtime-harness";
import { useScriptedModel } from "../../support/scripted-model/fixture";

const scripted = useScriptedModel("scripted");

describe("bilingual tool errors", () => {
  it("puts the error in the turn's language on the stream and both languages in toolMetadata", async () => {
    const key = "[bilingual-1]";
    const miss = defineToolSpec({
      name: "look_up_thing",
      title: { zh: "查找", en: "Look up" },
      description: "fails with a bilingual not_found",
      input: z.object({}),
      output: z.object({}),
      annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
    });
    const messages = { zh: "离线模式下没有 US.AAPL 的数据。", en: "No offline data for US.AAPL." };
    scripted.server().push([{ toolCalls: [{ name: "look_up_thing", arguments: {} }] }, { text: "not there" }], key);
    const run = await runHarnessTurn({
      models: scripted.models(),
      text: `analyze AAPL ${key}`,
      tools: [bindTool(miss, async () => err("not_found", messages.en, { messages }))],
    });
    expect(run.result.status).toBe("done");
    const error = run.chunks.find((c) => c.type === "tool-output-error") as {
      errorText: string;
      toolMetadata?: { messages?: unknown };
    };
    expect(error.errorText).toBe("not_found: No offline data for US.AAPL.");
    expect(error.toolMetadata?.messages).toEqual(messages);
  });

  it("says a schema failure in both languages: the same issues, zod's zh-CN locale, the schema's own message", async () => {
    const key = "[bilingual-2]";
    const spec = defineToolSpec({
      name: "bars_for",
      title: { zh: "K 线", en: "Bars" },
      description: "needs a market and a day count",
      input: z.object({
        market: z.enum(["cn", "us"]),
        days: z.number().int().min(1),
        start: z.string().refine((s) => !Number.isNaN(Date.parse(s)), "date is not a real calendar day"),
      }),
      output: z.object({}),
      annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
    });
    const bad = { market: "mars", days: 0, start: "2026-13-45" };
    scripted.server().push([{ toolCalls: [{ name: "bars_for", arguments: bad }] }, { text: "wrong input" }], key);
    const run = await runHarnessTurn({
      models: scripted.models(),
      text: `bars please ${key}`,
      tools: [bindTool(spec, async () => ({ ok: true, value: {} }) as never)],
    });
    const error = run.chunks.find((c) => c.type === "tool-output-error") as {
      errorText: string;
      toolMetadata?: { messages?: { en: string; zh: string } };
    };
    const messages = error.toolMetadata?.messages;
    expect(messages?.en).toMatch(
      /^invalid arguments for bars_for: market: .*; days: .*; start: date is not a real calendar day$/,
    );
    expect(error.errorText).toBe(`invalid_input: ${messages?.en}`);
    expect(messages?.zh).toMatch(
      /^bars_for 的参数无效：market: 无效选项：期望以下之一 "cn"\|"us"；days: 数值过小：期望 number >=1；start: 不是真实存在的日期$/,
    );
    // the Chinese text has no English words left but identifiers (field names, values, the tool's name)
    const words = (messages?.zh ?? "").replace(/\b(bars_for|market|days|start|cn|us|number)\b/g, "");
    expect(words).not.toMatch(/[A-Za-z]{3,}/);
  });
});
