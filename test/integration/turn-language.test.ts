/**
 * A turn's language when the text shows none: `POST …/messages` may carry the interface's `lang`
 * (the reading room sends it), and a bare command or code is then answered in it — the runtime's own
 * words (here a diagnosis) and the model, told in the turn's context. A text that shows a language
 * keeps it; a bad `lang` is a 400 and stores nothing.
 */
import { describe, expect, it } from "vitest";
import type { SessionAgent } from "../../worker/session/session-agent";
import { testEnv } from "./test-env";
import {
  chunksOf,
  eventually,
  modelRequests,
  newSession,
  parseFrames,
  postJson,
  readSession,
  script,
} from "./turn-helpers";

async function turnError(id: string, body: Record<string, unknown>): Promise<string> {
  const res = await postJson(`/api/sessions/${id}/messages`, body);
  expect(res.status).toBe(200);
  const error = chunksOf(parseFrames(await res.text())).find((c) => c.type === "error") as { errorText: string };
  return error.errorText;
}

const refused = [{ status: 401, body: { error: { message: "invalid api key" } } }];

/** The text of the last user message the model received. */
async function lastUserText(key: string): Promise<string> {
  const [request] = await modelRequests(key);
  const users = (request?.body.messages ?? []).filter((m) => m.role === "user");
  return JSON.stringify(users.at(-1)?.content ?? "");
}

describe("the language of a turn whose text shows none", () => {
  it("is the stated interface language: the runtime's words and the model's context follow it", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, refused);
    expect(await turnError(id, { text: `600000 ${key}`, lang: "zh" })).toContain("模型服务拒绝了密钥");
    expect(await lastUserText(key)).toContain("Reply language: zh");
  });

  it("is stated the same way in the AI SDK chat body", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, refused);
    const body = { lang: "zh", messages: [{ role: "user", parts: [{ type: "text", text: `/screen ${key}` }] }] };
    expect(await turnError(id, body)).toContain("模型服务拒绝了密钥");
  });

  it("is English when none is stated, and the model is told nothing", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, refused);
    expect(await turnError(id, { text: `600000 ${key}` })).toContain("Check LLM_API_KEY");
    expect(await lastUserText(key)).not.toContain("Reply language");
  });

  it("gives way to the language the text shows", async () => {
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, refused);
    expect(await turnError(id, { text: `analyze 600000 ${key}`, lang: "zh" })).toContain("Check LLM_API_KEY");
    expect(await lastUserText(key)).not.toContain("Reply language");
  });

  it("of a task's notification is the conversation's, and the model is told so", async () => {
    const { getAgentByName } = await import("agents");
    const id = await newSession();
    const key = `k-${id}`;
    await script(key, [{ text: "好的。" }, { text: "筛选完成：3 只候选。" }]);
    await (await postJson(`/api/sessions/${id}/messages`, { text: `/screen ${key}`, lang: "zh" })).text();
    const stub = await getAgentByName<Env, SessionAgent>(testEnv.SessionAgent, id);
    await stub.notify({ id: "task_zh", text: `Screening task_zh succeeded: 3 candidates ${key}` });
    await eventually(async () => {
      const s = await readSession(id);
      return s.messages.length === 4 && s.messages[3]?.metadata?.status === "done" ? s : undefined;
    });
    const notice = (await modelRequests(key)).at(-1)?.body.messages.at(-1);
    expect(String(notice?.content)).toContain("[SYSTEM NOTIFICATION - NOT USER INPUT]");
    expect(String(notice?.content)).toContain("Reply language: zh");
  });

  it("refuses a lang other than zh or en with a 400 naming it, and stores nothing", async () => {
    const id = await newSession();
    const res = await postJson(`/api/sessions/${id}/messages`, { text: "600000", lang: "fr" });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.message).toMatch(/lang/);
    expect((await readSession(id)).messages).toEqual([]);
  });
});
