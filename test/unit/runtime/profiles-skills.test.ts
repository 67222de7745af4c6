/** Profiles, skills and sub-agents in plain Node. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CAPABILITIES, SUBAGENT_TOOLS } from "../../../worker/runtime/profiles/definitions";
import { resolveProfile, validateProfiles } from "../../../worker/runtime/profiles/resolve";
import { BUILTIN_SKILLS } from "../../../worker/runtime/skills/builtin";
import { parseSkill, renderSkill, skillsReminder } from "../../../worker/runtime/skills/skill";
import { createModels } from "../../../worker/runtime/model";
import { TOOLS } from "../../../worker/tools/registry";
import { fakeToolDeps, runHarnessTurn } from "../../support/runtime-harness";
import { startScriptedModel, type ScriptedModel } from "../../support/scripted-model/server";

const known = new Set(TOOLS.map((t) => t.spec.name));

describe("profiles", () => {
  it("every declared profile, step and sub-agent names only registered tools", () => {
    expect(validateProfiles(known)).toEqual({ ok: true, value: undefined });
    const missing = new Set([...known].filter((t) => t !== "market_regime"));
    const checked = validateProfiles(missing);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error.message).toContain("names unknown tool market_regime");
  });

  it("merges capability then domain tools in order without duplicates, the domain's mode winning", () => {
    const p = resolveProfile("cn-equity:quick");
    expect(p.tools).toEqual([
      "search_stock_by_name",
      "analyze_stock",
      "get_time",
      "intraday_analysis",
      "market_regime",
    ]);
    expect(p).toMatchObject({
      maxRounds: 5,
      timeoutMs: 120_000,
      runtime: "react",
      domain: "cn-equity",
      capability: "quick",
    });
    expect(resolveProfile("deep-dive")).toMatchObject({ runtime: "pipeline", domain: "cn-equity" });
    expect(resolveProfile("deep-dive").steps.map((s) => s.name)).toEqual([
      "data",
      "structure",
      "events",
      "risk",
      "summary",
    ]);
  });

  it("falls back: unknown capability → every tool with 15 rounds / 600 s; no profile → default", () => {
    expect(resolveProfile("us-equity:astrology")).toMatchObject({
      tools: null,
      maxRounds: 15,
      timeoutMs: 600_000,
      domain: "us-equity",
    });
    expect(resolveProfile(null)).toMatchObject({ tools: null, maxRounds: 15, runtime: "react" });
    expect(CAPABILITIES.find((c) => c.id === "quick")?.maxRounds).toBe(5);
  });
});

describe("skills", () => {
  it("parses front matter and rejects malformed skills with the reason", () => {
    const good = parseSkill("---\nname: dcf\ndescription: DCF 估值分析\n---\n请对 {user_input} 进行 DCF 估值分析。");
    expect(good.ok && renderSkill(good.value, "600519")).toBe("请对 600519 进行 DCF 估值分析。");
    const reasons = [
      "no front matter",
      "---\nname: x\ndescription: y\nbody without closing",
      "---\nname: x\n---\nbody",
      "---\nname: Bad Name\ndescription: y\n---\nbody",
      "---\nname: x\ndescription: y\nauthor: me\n---\nbody",
      "---\nname: x\ndescription: y\n---\n",
    ].map((md) => {
      const r = parseSkill(md);
      return r.ok ? "accepted" : r.error.message;
    });
    expect(reasons).toEqual([
      "skill must start with a front matter block (---)",
      "front matter is not closed with ---",
      "front matter needs a description",
      "name must be a lower-case slug (a-z, 0-9, -), at most 32 characters",
      'unknown front matter field "author" (allowed: name, description)',
      "skill body is empty",
    ]);
  });

  it("ships the five built-ins and lists only names and descriptions in the reminder", () => {
    expect(BUILTIN_SKILLS.map((s) => s.name)).toEqual(["screen", "checkup", "report", "strategy", "backtest"]);
    const reminder = skillsReminder(BUILTIN_SKILLS);
    expect(reminder).toContain("<system-reminder>");
    expect(reminder).toContain("- /checkup: 持仓健康体检");
    expect(reminder).not.toContain("mode=diagnose"); // the body stays out until execute_skill
  });
});

describe("sub-agents", () => {
  let server: ScriptedModel;
  beforeAll(async () => {
    server = await startScriptedModel();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => server.reset());

  it("run with their own prompt and tool subset; a tool outside it is refused and reported", async () => {
    const main = "[main-1]";
    const sub = "[sub-1]";
    server.push(
      [
        { toolCalls: [{ name: "delegate_to_research", arguments: { task: `check pending jobs ${sub}` } }] },
        { text: "The research agent found no jobs." },
      ],
      main,
    );
    server.push(
      [
        {
          toolCalls: [
            { name: "update_portfolio", arguments: { action: "set_cash", cash: 1 } },
            { name: "check_background_tasks", arguments: {} },
          ],
        },
        { text: "No background jobs are running." },
      ],
      sub,
    );
    const run = await runHarnessTurn({
      models: createModels({ baseURL: server.url, apiKey: undefined, model: "scripted" }, undefined),
      text: `any jobs? ${main}`,
      toolDeps: { ...fakeToolDeps(), skills: { list: async () => [], get: async () => null } },
    });
    expect(run.result.status).toBe("done");
    const subRequests = server.requests(sub);
    expect(subRequests).toHaveLength(2);
    expect(String(subRequests[0]?.body?.messages[0]?.content)).toContain("research sub-agent");
    const subTools = (subRequests[0]?.body?.tools ?? [])
      .map((t) => (t as { function: { name: string } }).function.name)
      .sort();
    expect(subTools).toEqual([...SUBAGENT_TOOLS.research].filter((t) => known.has(t)).sort());
    const output = (
      run.chunks.find(
        (c) =>
          c.type === "tool-output-available" && "output" in c && (c.output as { agent?: string }).agent === "research",
      ) as { output: Record<string, unknown> }
    ).output;
    expect(output).toMatchObject({
      agent: "research",
      answer: "No background jobs are running.",
      refused: ["update_portfolio"],
      status: "done",
      rounds: 2,
    });
    const refusal = run.chunks.find((c) => c.type === "tool-output-error") as { errorText: string };
    expect(refusal.errorText).toMatch(/^refused: update_portfolio is not available to the research sub-agent/);
    const marked = run.chunks.filter(
      (c) =>
        c.type === "tool-input-available" &&
        (c as { toolMetadata?: { subagent?: string } }).toolMetadata?.subagent === "research",
    );
    expect(marked).toHaveLength(2);
    const delegateCall = run.chunks.find(
      (c) => c.type === "tool-input-available" && (c as { toolName: string }).toolName === "delegate_to_research",
    ) as { toolCallId: string };
    const nestedOutput = run.chunks.find(
      (c) =>
        c.type === "tool-output-available" &&
        (c as { toolMetadata?: { subagent?: string } }).toolMetadata?.subagent === "research",
    );
    expect(nestedOutput).toMatchObject({
      toolMetadata: { subagent: "research", parent: delegateCall.toolCallId, ms: expect.any(Number) },
    });
    expect(run.chunks.some((c) => c.type === "data-subagent")).toBe(true);
    expect(run.result.rounds).toBe(4); // the sub-agent's 2 rounds count against the turn
  });
});
