/**
 * Skills, hints, profiles and the deep-dive pipeline inside workerd, driven through the scripted model
 * over the offline market bundle.
 */
import { beforeAll, describe, expect, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import {
  call,
  chunksOf,
  modelRequests,
  newSession,
  parseFrames,
  postJson,
  readSession,
  script,
  sendAndRead,
} from "./turn-helpers";
import { testEnv } from "./test-env";

beforeAll(async () => {
  const cache = new D1MarketCache(createDb(testEnv.DB));
  const bundle = buildOfflineBundle({ sp500Csv });
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series.filter(
    (x) => x.symbolId === "SIM.0001" || x.symbolId.startsWith("SIM.IDX") || x.symbolId === "US.SPX",
  ))
    await cache.putSeries(s);
});

type Body = { model: string; messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
const toolNames = (body: Body | undefined) => (body?.tools ?? []).map((t) => t.function.name);

async function newProfiled(profile: string): Promise<string> {
  const res = await postJson("/api/sessions", { profile });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("skills", () => {
  it("lists skills in a system reminder and loads one lazily through execute_skill", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "execute_skill", arguments: { name: "checkup", user_input: "重点看止损" } }] },
      { text: "体检完成。" },
    ]);
    const { frames } = await sendAndRead(id, `/checkup ${key}`);
    const [first] = (await modelRequests(key)) as { body: Body }[];
    const system = String(first?.body.messages[0]?.content);
    expect(system).toContain("<system-reminder>");
    expect(system).toContain("- /checkup: 持仓健康体检");
    expect(system).not.toContain("mode=diagnose");
    const output = chunksOf(frames).find((c) => c.type === "tool-output-available") as {
      output: { instructions: string };
    };
    expect(output.output.instructions).toContain("portfolio with mode=diagnose");
    expect(output.output.instructions).toContain("重点看止损");
  });

  it("creates, rejects, shadows and deletes user skills", async () => {
    const malformed = await postJson("/api/skills", { markdown: "---\nname: dcf\n---\nbody" });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toBe(
      "skill rejected: front matter needs a description",
    );
    const created = await postJson("/api/skills", {
      markdown: "---\nname: dcf\ndescription: DCF 估值\n---\n请对 {user_input} 做 DCF 估值。",
    });
    expect(created.status).toBe(201);
    expect((await postJson("/api/skills", { markdown: "---\nname: screen\ndescription: mine\n---\nx" })).status).toBe(
      409,
    );
    const list = (await (await call("/api/skills")).json()) as { skills: { name: string; builtin: boolean }[] };
    expect(list.skills.find((s) => s.name === "dcf")).toMatchObject({ builtin: false });
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "execute_skill", arguments: { name: "dcf", user_input: "SIM.0001" } }] },
      { text: "ok" },
    ]);
    const { frames } = await sendAndRead(id, `/dcf SIM.0001 ${key}`);
    expect(chunksOf(frames).find((c) => c.type === "tool-output-available")).toMatchObject({
      output: { instructions: "请对 SIM.0001 做 DCF 估值。" },
    });
    expect((await call("/api/skills/dcf", { method: "DELETE" })).status).toBe(204);
    expect((await call("/api/skills/dcf", { method: "DELETE" })).status).toBe(404);
  });
});

describe("scenario hints", () => {
  it("puts at most three matching hints in front of the question, never in the system prompt; shipped hints are read-only", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "ok" }]);
    await sendAndRead(id, `这个弹簧之后缩量了吗 ${key}`);
    const messages = ((await modelRequests(key)) as { body: Body }[])[0]?.body.messages ?? [];
    const system = String(messages[0]?.content);
    const question = String(messages.filter((m) => m.role === "user").at(-1)?.content);
    expect(question).toMatch(/^<turn-context>\nToday \(UTC\): /);
    expect(question).toContain("Spring types");
    expect(question).toContain("Effort vs result");
    expect(question).not.toContain("UTAD: a break");
    expect(question).toContain(`<current-user-message>\n这个弹簧之后缩量了吗 ${key}\n</current-user-message>`);
    // The system prompt is byte-stable: no hints, no date.
    expect(system).not.toContain("Spring types");
    expect(system).not.toContain("Today (UTC)");
    const mine = await postJson("/api/hints", { keywords: ["龙头"], text: "Leaders first." });
    expect(mine.status).toBe(201);
    const hintId = ((await mine.json()) as { id: string }).id;
    expect((await call(`/api/hints/h_spring`, { method: "DELETE" })).status).toBe(404);
    expect((await postJson("/api/hints", { keywords: ["a,b"], text: "x" })).status).toBe(400);
    expect((await call(`/api/hints/${hintId}`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("profiles", () => {
  it("narrows the visible tools and the round budget, and can be switched", async () => {
    const id = await newProfiled("cn-equity:quick");
    const key = `k-${id}`;
    await script(
      key,
      Array.from({ length: 6 }, () => ({ toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] })),
    );
    const { frames } = await sendAndRead(id, `loop ${key}`);
    const requests = (await modelRequests(key)) as { body: Body }[];
    // capability's tools, then the domain's, in order, then execute_skill
    expect(toolNames(requests[0]?.body)).toEqual([
      "search_stock_by_name",
      "analyze_stock",
      "get_time",
      "intraday_analysis",
      "market_regime",
      "execute_skill",
    ]);
    expect(requests).toHaveLength(5);
    expect(chunksOf(frames).at(-1)).toMatchObject({ type: "finish", messageMetadata: { rounds: 5 } });
    expect(String(requests[0]?.body.messages[0]?.content)).toContain("Mode: quick");

    const switched = await call(`/api/sessions/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ profile: null }),
    });
    expect(await switched.json()).toMatchObject({ profile: null });
    await script(key, [{ text: "default now" }]);
    await sendAndRead(id, `again ${key}`);
    const last = ((await modelRequests(key)) as { body: Body }[]).at(-1);
    expect(toolNames(last?.body)).toContain("delegate_to_research");
    expect((await postJson("/api/sessions", { profile: "Bad Profile" })).status).toBe(400);
  });
});

describe("deep-dive pipeline", () => {
  it("runs five steps with their own tools and streams exactly the stored text", async () => {
    const id = await newProfiled("deep-dive");
    const key = `k-${id}`;
    await script(key, [
      { toolCalls: [{ name: "analyze_stock", arguments: { code: "SIM.0001", mode: "price", days: 10 } }] },
      { text: "数据：SIM.0001 模拟数据，至 2026-06-30。" },
      { toolCalls: [{ name: "analyze_stock", arguments: { code: "SIM.0001" } }] },
      { text: "结构：交易区间明确。" },
      { text: "事件：ST 与 Spring。" },
      { toolCalls: [{ name: "market_regime", arguments: { market: "sim" } }] },
      { text: "风险：止损在区间下沿。" },
      { text: "总结：吸筹迹象，注意止损。" },
    ]);
    const { frames } = await sendAndRead(id, `深度研究 SIM.0001 ${key}`);
    const chunks = chunksOf(frames);
    const streamed = chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(streamed).toContain("### 1/5 数据检查");
    expect(streamed).toContain("### 5/5 总结");
    expect(streamed).toContain("总结：吸筹迹象，注意止损。");
    expect(chunks.filter((c) => c.type === "tool-output-available")).toHaveLength(3);
    const requests = (await modelRequests(key)) as { body: Body }[];
    expect(toolNames(requests[0]?.body).sort()).toEqual(["analyze_stock", "search_stock_by_name"]);
    expect(toolNames(requests.at(-1)?.body)).toEqual([]); // the summary step has no tools
    expect(String(requests.at(-1)?.body.messages[0]?.content)).toContain("Step 5 — summary");
    const session = await readSession(id);
    const stored = session.messages[1]?.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("");
    expect(stored).toBe(streamed);
    expect(session.messages[1]?.metadata?.status).toBe("done");
  });

  it("stops at a failing step, keeps earlier outputs and reports x/y progress, without retrying", async () => {
    const id = await newProfiled("deep-dive");
    const key = `k-${id}`;
    await script(key, [
      { text: "数据检查完成。" },
      { text: "结构：区间。" },
      { status: 401, body: { error: { message: "bad key" } } },
    ]);
    const { frames } = await sendAndRead(id, `深度研究 SIM.0001 ${key}`);
    const streamed = chunksOf(frames)
      .filter((c) => c.type === "text-delta")
      .map((c) => (c as { delta: string }).delta)
      .join("");
    expect(streamed).toContain("数据检查完成。");
    expect(streamed).toContain("结构：区间。");
    expect(streamed).toContain("流水线在第 3/5 步停止");
    expect(streamed).toContain("已完成 2/5 步");
    expect(await modelRequests(key)).toHaveLength(3);
    expect((await readSession(id)).messages[1]?.metadata?.status).toBe("error");
    expect(parseFrames("").length).toBe(0);
  });
});
