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
});
