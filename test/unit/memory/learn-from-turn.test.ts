/**
 * The learning step after a turn decides when the model's memory pass runs: only with a model, only
 * on every MODEL_PASS_EVERY_TURNS-th user turn, only when the window holds enough messages and used a
 * tool; a notification turn teaches nothing. The pass's usage reaches the owner's totals. Run in Node
 * against fakes and the scripted model server (the DO wiring is session/session-memory.ts).
 */
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../worker/lib/log";
import {
  learnFromTurn,
  MODEL_PASS_EVERY_TURNS,
  type LearnDeps,
  type LearnMessage,
} from "../../../worker/runtime/memory/learn-from-turn";
import type { UsageEntry } from "../../../worker/runtime/usage";
import { useScriptedModel } from "../../support/scripted-model/fixture";
import { createMemoryStoreFake } from "./memory-fakes";

const scripted = useScriptedModel("scripted");
const NOW = 1_800_000_000_000;

function msg(
  id: string,
  role: LearnMessage["role"],
  text: string,
  extra: Record<string, unknown>[] = [],
): LearnMessage {
  return { id, role, parts: [{ type: "text", text }, ...extra], metadata: null };
}

/** A session whose window used a tool, with `userTurns` user messages in all. */
function setup(o: { key: string; userTurns: number; tool?: boolean; model?: boolean; notification?: boolean }) {
  const user = msg("m_u", "user", `我习惯只做右侧交易 ${o.key}`);
  if (o.notification) user.metadata = { kind: "notification" };
  const window = [
    msg("m_1", "user", `看看 600000 ${o.key}`),
    msg("m_2", "assistant", "好的", o.tool === false ? [] : [{ type: "tool-analyze_stock", toolCallId: "c1" }]),
    msg("m_3", "user", `我一般只做右侧交易 ${o.key}`),
    msg("m_4", "assistant", "明白"),
  ];
  const usage: UsageEntry[][] = [];
  const deps: LearnDeps = {
    store: createMemoryStoreFake(),
    messages: {
      message: (id) => (id === user.id ? user : undefined),
      userTurns: () => o.userTurns,
      last: (n) => window.slice(-n),
    },
    modelsFor: async () => ({
      model: o.model === false ? undefined : { baseURL: scripted.server().url, apiKey: undefined, model: "scripted" },
      fallbackModel: undefined,
    }),
    prices: { "*": { input: 1, output: 2 } },
    addUsage: async (_owner, _now, entries) => {
      usage.push([...entries]);
    },
    now: () => NOW,
    log: createLogger(() => {}),
  };
  scripted.server().push([{ text: "NONE" }, { text: "NONE" }, { text: "NONE" }], o.key);
  const input = { ownerId: "u1", sessionId: "s_1", userMessageId: user.id, assistant: undefined, answered: false };
  return { deps, input, usage, passRequests: () => scripted.server().requests(o.key).length };
}

describe("learnFromTurn", () => {
  it(`runs the model pass on the ${MODEL_PASS_EVERY_TURNS}th user turn when the window used a tool, and counts its usage`, async () => {
    const s = setup({ key: "[learn-1]", userTurns: MODEL_PASS_EVERY_TURNS });
    await learnFromTurn(s.deps, s.input);
    expect(s.passRequests()).toBeGreaterThanOrEqual(1);
    expect(s.usage).toHaveLength(1);
    expect(s.usage[0]?.[0]).toMatchObject({ purpose: "memory", modelId: "scripted" });
    // The keyword rules ran first and kept the stated preference.
    expect((await s.deps.store.list("u1", { limit: 50 })).length).toBeGreaterThan(0);
  });

  it("runs no pass on other turns, without a tool in the window, or without a model", async () => {
    for (const [key, o] of [
      ["[learn-2]", { userTurns: MODEL_PASS_EVERY_TURNS - 1 }],
      ["[learn-3]", { userTurns: MODEL_PASS_EVERY_TURNS, tool: false }],
      ["[learn-4]", { userTurns: MODEL_PASS_EVERY_TURNS, model: false }],
    ] as const) {
      const s = setup({ key, ...o });
      await learnFromTurn(s.deps, s.input);
      expect(s.passRequests(), key).toBe(0);
      expect(s.usage, key).toEqual([]);
    }
  });

  it("learns nothing from a notification turn", async () => {
    const s = setup({ key: "[learn-5]", userTurns: MODEL_PASS_EVERY_TURNS, notification: true });
    await learnFromTurn(s.deps, s.input);
    expect(s.passRequests()).toBe(0);
    expect(await s.deps.store.list("u1", { limit: 50 })).toEqual([]);
  });
});
