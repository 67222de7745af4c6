/** Pure pieces behind the composer, profiles, spills, usage and the settings editors. */
import { describe, expect, it } from "vitest";
import { choiceOf, describeProfile, profileOf } from "../../../web/lib/profiles";
import { SETTINGS_STRINGS } from "../../../web/lib/settings-strings";
import { parseKeywords, SKILL_TEMPLATE, skillMarkdown, skillNameOf } from "../../../web/lib/skill-markdown";
import { completeSkill, matchSkills, moveActive, slashQuery } from "../../../web/lib/slash-menu";
import { spillLocation, spillOf } from "../../../web/lib/spill";
import { STRINGS, type StringKey } from "../../../web/lib/strings";
import { usageOf } from "../../../web/lib/turn-state";
import { formatTokens, formatUsd } from "../../../web/lib/usage-format";

const skills = [
  { name: "screen", description: "Screen the market for Wyckoff setups", builtin: true },
  { name: "checkup", description: "Health check of your holdings", builtin: true },
  { name: "report", description: "A written report on one symbol", builtin: true },
  { name: "my-scan", description: "screen small caps my way", builtin: false },
];

describe("slash menu", () => {
  it("opens only for a leading slash word before the caret", () => {
    expect(slashQuery("/", 1)).toBe("");
    expect(slashQuery("/Che", 4)).toBe("che");
    expect(slashQuery("/checkup SIM", 12)).toBeNull();
    expect(slashQuery("/checkup SIM", 3)).toBe("ch");
    expect(slashQuery("see /checkup", 12)).toBeNull();
    expect(slashQuery("", 0)).toBeNull();
  });

  it("lists name-prefix matches first, then names or descriptions containing the word", () => {
    expect(matchSkills(skills, "").map((s) => s.name)).toEqual(["screen", "checkup", "report", "my-scan"]);
    expect(matchSkills(skills, "sc").map((s) => s.name)).toEqual(["screen", "my-scan"]);
    expect(matchSkills(skills, "holdings").map((s) => s.name)).toEqual(["checkup"]);
    expect(matchSkills(skills, "zzz")).toEqual([]);
  });

  it("completes to `/name ` and keeps what follows", () => {
    expect(completeSkill("/ch", "checkup")).toBe("/checkup ");
    expect(completeSkill("/ch SIM.0002", "checkup")).toBe("/checkup SIM.0002");
    expect(completeSkill("/", "screen")).toBe("/screen ");
  });

  it("wraps the highlight around the list", () => {
    expect(moveActive(0, -1, 3)).toBe(2);
    expect(moveActive(2, 1, 3)).toBe(0);
    expect(moveActive(0, 1, 0)).toBe(0);
  });
});

describe("profiles", () => {
  it("joins domain and capability, either alone, or null for the default", () => {
    expect(profileOf({ domain: "us-equity", capability: "analysis" })).toBe("us-equity:analysis");
    expect(profileOf({ domain: "index", capability: "" })).toBe("index");
    expect(profileOf({ domain: "", capability: "deep-dive" })).toBe("deep-dive");
    expect(profileOf({ domain: "", capability: "" })).toBeNull();
  });

  it("reads a stored profile back the way the server does", () => {
    expect(choiceOf("cn-equity:quick")).toEqual({ domain: "cn-equity", capability: "quick" });
    expect(choiceOf("us-equity")).toEqual({ domain: "us-equity", capability: "" });
    expect(choiceOf("research")).toEqual({ domain: "", capability: "research" });
    expect(choiceOf(null)).toEqual({ domain: "", capability: "" });
  });

  it("describes a profile in words", () => {
    const t = (k: StringKey) => STRINGS.en[k];
    expect(describeProfile("us-equity:deep-dive", t)).toBe("US equities · Deep dive (pipeline)");
    expect(describeProfile(null, t)).toBe("default");
    expect(describeProfile("crypto:moon", t)).toBe("crypto · moon");
  });
});

describe("spills", () => {
  const output = {
    spilled: true,
    ref: "spills/s_abc/t_def/call%2F1.json",
    chars: 123_456,
    preview: '{"rows":[',
    index: { keys: ["rows", "asOf"], arrays: { rows: 5000 } },
    note: "stored",
  };

  it("recognises a spill reference and nothing else", () => {
    expect(spillOf(output)).toEqual({
      ref: output.ref,
      chars: 123_456,
      preview: '{"rows":[',
      keys: ["rows", "asOf"],
      arrays: { rows: 5000 },
      note: "stored",
    });
    expect(spillOf({ rows: [] })).toBeNull();
    expect(spillOf({ spilled: true })).toBeNull();
    expect(spillOf(null)).toBeNull();
  });

  it("reads the session, turn and decoded call id from the reference", () => {
    expect(spillLocation(output.ref)).toEqual({ sessionId: "s_abc", turnId: "t_def", callId: "call/1" });
    expect(spillLocation("spills/a/b.json")).toBeNull();
    expect(spillLocation("spills/a/b/%E0%A4%A.json")).toBeNull();
  });
});

describe("usage and cost", () => {
  it("reads the running total's cost and cache writes from data-usage", () => {
    expect(
      usageOf({
        round: 2,
        inputTokens: 5,
        costUsd: 0.001,
        total: { inputTokens: 10, cacheWriteTokens: 4, costUsd: 0.002 },
      }),
    ).toEqual({
      inputTokens: 10,
      outputTokens: 0,
      reasoningTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 4,
      costUsd: 0.002,
    });
  });

  it("formats costs with enough digits and tokens compactly", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(0.00042)).toBe("$0.00042");
    expect(formatUsd(0.0123)).toBe("$0.012");
    expect(formatUsd(1.234)).toBe("$1.23");
    expect(formatUsd(250.4)).toBe("$250");
    expect(formatUsd(1e-9)).toBe("<$0.000001");
    expect(formatTokens(9_999)).toBe("9,999");
    expect(formatTokens(12_345)).toBe("12.3k");
  });
});

describe("skill markdown and hint keywords", () => {
  it("round-trips a skill through markdown", () => {
    const md = skillMarkdown({ name: "my-scan", description: "Scan my way", body: "Do it for {user_input}." });
    expect(md).toBe("---\nname: my-scan\ndescription: Scan my way\n---\nDo it for {user_input}.\n");
    expect(skillNameOf(md)).toBe("my-scan");
    expect(skillNameOf(SKILL_TEMPLATE)).toBe("my-skill");
    expect(skillNameOf("no front matter")).toBeNull();
  });

  it("splits keywords on ASCII and Chinese commas, dropping blanks and repeats", () => {
    expect(parseKeywords("spring, 弹簧，test、 spring ,")).toEqual(["spring", "弹簧", "test"]);
  });

  it("has every settings string in both languages with the same placeholders", () => {
    const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).toSorted();
    const keys = Object.keys(SETTINGS_STRINGS.zh) as (keyof typeof SETTINGS_STRINGS.zh)[];
    expect(Object.keys(SETTINGS_STRINGS.en).toSorted()).toEqual(keys.toSorted());
    for (const k of keys) expect(holes(SETTINGS_STRINGS.en[k]), k).toEqual(holes(SETTINGS_STRINGS.zh[k]));
  });
});
