/**
 * Per-user model settings inside workerd: the routes (validation, address policy, sealed keys that
 * never come back, replacement and deletion, a missing or wrong MODEL_KEYS_SECRET), a user's turns
 * reaching their own endpoint with their own key, and prompt caching against the scripted model's
 * Anthropic Messages endpoint across three turns of a session.
 */
import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";
import { KeyBox } from "../../worker/storage/key-box";
import { call, chunksOf, newSession, readSession, script, sendAndRead } from "./turn-helpers";
import { testEnv } from "./test-env";
import { USER_MODEL_KEYS } from "./user-model-keys";

const [OWN_KEY, ANTHROPIC_KEY] = USER_MODEL_KEYS;
const controlBase = () => testEnv.LLM_BASE_URL.replace(/\/v1$/, "");

type Recorded = {
  protocol: "openai" | "anthropic";
  path: string;
  headers: Record<string, string>;
  rawBody: string;
  body: Record<string, unknown>;
};
async function recorded(key: string): Promise<Recorded[]> {
  return (await (await fetch(`${controlBase()}/__requests?key=${encodeURIComponent(key)}`)).json()) as Recorded[];
}

const put = (body: unknown) =>
  call("/api/settings/model", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const get = () => call("/api/settings/model");
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

afterEach(async () => {
  await call("/api/settings/model", { method: "DELETE" });
});

describe("model settings routes", () => {
  it("starts with the deployment's default and refuses bad bodies without changing anything", async () => {
    const before = (await (await get()).json()) as { own: unknown; default: { model: string; offline: boolean } };
    expect(before).toEqual({ own: null, default: { model: "scripted", offline: false } });
    const cases: [unknown, RegExp][] = [
      [{ baseURL: "not a url", model: "m" }, /^baseURL: /],
      [{ baseURL: "ftp://example.com/v1", model: "m" }, /^baseURL: /],
      [{ baseURL: "https://example.com/v1" }, /^model: /],
      [{ baseURL: "https://example.com/v1", model: "m", apiKey: "" }, /^apiKey: /],
      [{ baseURL: "https://example.com/v1", model: "m", extra: 1 }, /extra/],
      [{ baseURL: "https://example.com/v1", model: "m", contextWindow: 10 }, /^contextWindow: /],
      [{ baseURL: "https://example.com/v1", model: "m", provider: "gemini" }, /^provider: /],
      [{ baseURL: "http://10.0.0.5/v1", model: "m" }, /^baseURL: 10\.0\.0\.5 is a private address/],
      [{ baseURL: "http://169.254.169.254/latest", model: "m" }, /^baseURL: 169\.254\.169\.254 is a link-local/],
      [{ baseURL: "https://user:pw@example.com/v1", model: "m" }, /credentials/],
      [
        { baseURL: "https://example.com/v1", model: "m", fallback: { baseURL: "http://192.168.1.2/v1", model: "f" } },
        /^fallback\.baseURL: 192\.168\.1\.2 is a private address/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("invalid_input");
      expect(error.message).toMatch(message);
    }
    expect(((await (await get()).json()) as { own: unknown }).own).toBeNull();
  });

  it("seals the key with a fresh IV, never returns it, keeps it on edits, replaces and deletes it", async () => {
    const saved = await put({
      baseURL: "https://api.example.com/v1/",
      model: "own-model",
      apiKey: OWN_KEY,
      contextWindow: 32000,
    });
    expect(saved.status).toBe(200);
    const text = await saved.text();
    expect(text).not.toContain(OWN_KEY);
    expect(JSON.parse(text)).toMatchObject({
      own: {
        primary: {
          baseURL: "https://api.example.com/v1",
          model: "own-model",
          provider: null,
          effectiveProvider: "openai-compatible",
          apiKey: { set: true, last4: "abcd" },
        },
        fallback: null,
        contextWindow: 32000,
      },
    });
    const row = async () =>
      (
        await testEnv.DB.prepare("SELECT api_key FROM user_model_settings WHERE owner_id = 'local'").first<{
          api_key: string | null;
        }>()
      )?.api_key ?? null;
    const first = await row();
    expect(first).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(first).not.toContain(OWN_KEY.slice(3, 12));
    // The same key saved again: another IV, another ciphertext; both open to the key.
    await put({ baseURL: "https://api.example.com/v1", model: "own-model", apiKey: OWN_KEY });
    const second = await row();
    expect(second).not.toBe(first);
    const box = await KeyBox.create(testEnv.MODEL_KEYS_SECRET);
    expect(await box.open(second ?? "", "local")).toBe(OWN_KEY);
    expect(await box.open(second ?? "", "someone-else")).toBeNull();
    // An edit without a key keeps it (same host) …
    const kept = await put({ baseURL: "https://api.example.com/v2", model: "own-model-2" });
    expect(((await kept.json()) as { own: { primary: { apiKey: unknown } } }).own.primary.apiKey).toEqual({
      set: true,
      last4: "abcd",
    });
    expect(await row()).toBe(second);
    // … but never follows the endpoint to another host.
    const moved = await put({ baseURL: "https://elsewhere.example.net/v1", model: "own-model" });
    expect(moved.status).toBe(400);
    expect((await errorOf(moved)).message).toBe("apiKey: enter the API key again when the base URL's host changes");
    expect(await row()).toBe(second);
    // Replace, then delete the key alone, then everything.
    await put({ baseURL: "https://api.example.com/v1", model: "own-model", apiKey: "sk-replaced-zz99" });
    expect(((await (await get()).json()) as { own: { primary: { apiKey: unknown } } }).own.primary.apiKey).toEqual({
      set: true,
      last4: "zz99",
    });
    // A short key gets no hint at all (four characters would give too much away).
    const short = await put({ baseURL: "https://api.example.com/v1", model: "own-model", apiKey: "sk-1234" });
    expect(((await short.json()) as { own: { primary: { apiKey: unknown } } }).own.primary.apiKey).toEqual({
      set: true,
      last4: null,
    });
    const keyless = await put({ baseURL: "https://api.example.com/v1", model: "own-model", apiKey: null });
    expect(((await keyless.json()) as { own: { primary: { apiKey: unknown } } }).own.primary.apiKey).toEqual({
      set: false,
      last4: null,
    });
    expect(await row()).toBeNull();
    expect((await call("/api/settings/model", { method: "DELETE" })).status).toBe(204);
    expect(((await (await get()).json()) as { own: unknown }).own).toBeNull();
  });

  it("names MODEL_KEYS_SECRET when it is missing, too short or not the one the keys were sealed with; other routes work", async () => {
    await put({ baseURL: "https://api.example.com/v1", model: "own-model", apiKey: OWN_KEY });
    const app = createApp();
    const withSecret = (secret: string, path = "/api/settings/model", init: RequestInit = {}) =>
      app.request(
        `http://wyckoff.test${path}`,
        init,
        { ...testEnv, MODEL_KEYS_SECRET: secret },
        createExecutionContext(),
      );
    for (const [secret, message] of [
      ["", "server misconfigured: MODEL_KEYS_SECRET is not set"],
      ["short", "server misconfigured: MODEL_KEYS_SECRET must be at least 32 characters"],
      ["another-secret-of-enough-length-0123456789", "MODEL_KEYS_SECRET (it was changed or removed)"],
    ] as const) {
      const res = await withSecret(secret);
      expect(res.status, secret).toBe(500);
      const error = await errorOf(res);
      expect(error.code).toBe("internal");
      expect(error.message).toContain(message);
      expect((await withSecret(secret, "/api/health")).status).toBe(200);
      expect((await withSecret(secret, "/api/sessions")).status).toBe(200);
    }
    const saveWithout = await withSecret("", "/api/settings/model", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ baseURL: "https://api.example.com/v1", model: "m", apiKey: "sk-x" }),
    });
    expect(saveWithout.status).toBe(500);
    expect((await errorOf(saveWithout)).message).toContain("MODEL_KEYS_SECRET");
    expect((await withSecret("", "/api/settings/model", { method: "DELETE" })).status).toBe(204);
  });
});

describe("a user's own model", () => {
  it("serves their turns with their base URL, model and key; deleting it restores the default", async () => {
    const saved = await put({ baseURL: testEnv.LLM_BASE_URL, model: "users-own-model", apiKey: OWN_KEY });
    expect(saved.status).toBe(200);
    const id = await newSession();
    const key = `own-${id}`;
    await script(key, [{ text: "from your own model" }, { text: "from the default model" }]);
    const { frames } = await sendAndRead(id, `hello ${key}`);
    const text = chunksOf(frames)
      .map((c) => (c.type === "text-delta" ? c.delta : ""))
      .join("");
    expect(text).toBe("from your own model");
    const [own] = await recorded(key);
    expect(own?.body["model"]).toBe("users-own-model");
    expect(own?.headers["authorization"]).toBe(`Bearer ${OWN_KEY}`);
    // The key is nowhere in what the person can read back.
    expect(JSON.stringify(await readSession(id))).not.toContain(OWN_KEY);
    expect(await (await get()).text()).not.toContain(OWN_KEY);
    await call("/api/settings/model", { method: "DELETE" });
    await sendAndRead(id, `again ${key}`);
    const [, fallbackToDefault] = await recorded(key);
    expect(fallbackToDefault?.body["model"]).toBe("scripted");
    expect(fallbackToDefault?.headers["authorization"]).toBe("Bearer test-key");
  });

  it("ends the turn with a diagnosis (not the default model) when the saved key cannot be opened", async () => {
    await put({ baseURL: testEnv.LLM_BASE_URL, model: "users-own-model", apiKey: OWN_KEY });
    // Sealed under another secret: as after a rotation of MODEL_KEYS_SECRET.
    const other = await KeyBox.create("a-completely-different-secret-0123456789");
    await testEnv.DB.prepare("UPDATE user_model_settings SET api_key = ? WHERE owner_id = 'local'")
      .bind(await other.seal(OWN_KEY, "local"))
      .run();
    const id = await newSession();
    const key = `broken-${id}`;
    await script(key, [{ text: "must not be used" }]);
    const { frames } = await sendAndRead(id, `hello ${key}`);
    const error = chunksOf(frames).find((c) => c.type === "error") as { errorText: string } | undefined;
    expect(error?.errorText).toContain(
      "Your saved model settings cannot be used: the saved API key cannot be decrypted",
    );
    expect(await recorded(key)).toEqual([]);
  });
});

describe("prompt caching with an Anthropic endpoint", () => {
  it("sends breakpoints and a byte-identical system prompt across three turns, and counts cache reads", async () => {
    const saved = await put({
      baseURL: testEnv.LLM_BASE_URL,
      model: "claude-scripted",
      provider: "anthropic",
      apiKey: ANTHROPIC_KEY,
    });
    expect(
      ((await saved.json()) as { own: { primary: { effectiveProvider: string } } }).own.primary.effectiveProvider,
    ).toBe("anthropic");
    const id = await newSession();
    const key = `anth-${id}`;
    await script(key, [{ text: "第一次。" }, { text: "第二次。" }, { text: "第三次。" }]);
    for (const q of ["这个弹簧之后缩量了吗", "现在呢", "总结"]) {
      const { frames } = await sendAndRead(id, `${q} ${key}`);
      expect(chunksOf(frames).at(-1)?.type).toBe("finish");
    }
    const requests = await recorded(key);
    expect(requests).toHaveLength(3);
    for (const r of requests) {
      expect(r.protocol).toBe("anthropic");
      expect(r.path).toBe("/v1/messages");
      expect(r.headers["x-api-key"]).toBe(ANTHROPIC_KEY);
    }
    type Body = {
      system: { type: string; text: string; cache_control?: unknown }[];
      messages: { role: string; content: { type: string; text?: string; cache_control?: unknown }[] }[];
    };
    const bodies = requests.map((r) => JSON.parse(r.rawBody) as Body);
    const systems = bodies.map((b) => JSON.stringify(b.system));
    expect(new Set(systems).size).toBe(1);
    expect(bodies[0]?.system).toHaveLength(1);
    expect(bodies[0]?.system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(bodies[0]?.system[0]?.text).not.toContain("Today (UTC)");
    expect(bodies[0]?.system[0]?.text).not.toContain("Spring types");
    for (const b of bodies) {
      const blocks = b.messages.flatMap((m) => m.content);
      expect(blocks.filter((x) => x.cache_control !== undefined)).toEqual([blocks.at(-1)]);
      expect(blocks.at(-1)?.text).toMatch(/^<turn-context>\nToday \(UTC\): /);
    }
    // The first question's hint travelled with it, not in the system prompt.
    expect(bodies[0]?.messages.at(-1)?.content.at(-1)?.text).toContain("Spring types");
    const session = await readSession(id);
    expect(session.usage["cachedInputTokens"]).toBeGreaterThan(0);
    expect(session.usage["cacheWriteTokens"]).toBeGreaterThan(0);
  });
});
