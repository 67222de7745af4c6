/** The provider transport: timeout, one jittered retry, 429 not retried, circuit breaker, pacing. */
import { describe, expect, it } from "vitest";
import { createHttpClient, type HttpClientOptions } from "../../../worker/market/http-client";

function harness(responses: (() => Promise<Response>)[], o: Partial<HttpClientOptions> = {}) {
  let clock = 1_000_000;
  const sleeps: number[] = [];
  const calls: string[] = [];
  const client = createHttpClient({
    fetch: (async (url: string) => {
      calls.push(url);
      const next = responses.shift();
      if (!next) throw new Error("no more responses");
      return next();
    }) as typeof fetch,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
    ...o,
  });
  return { client, sleeps, calls, advance: (ms: number) => (clock += ms) };
}

const json =
  (body: unknown, status = 200) =>
  async () =>
    new Response(JSON.stringify(body), { status });
const reset = () => async () => {
  throw new TypeError("Remote end closed connection without response");
};

describe("createHttpClient", () => {
  it("retries once after a connection reset, with jitter, then succeeds", async () => {
    const h = harness([reset(), json({ ok: 1 })]);
    const r = await h.client.get("http://a.test/x");
    expect(r.ok).toBe(true);
    expect(h.calls).toHaveLength(2);
    expect(h.sleeps).toEqual([500]);
  });

  it("gives up after one retry and reports the cause", async () => {
    const h = harness([reset(), reset(), json({})]);
    const r = await h.client.get("http://a.test/x");
    expect(r).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } });
    if (!r.ok) expect(r.error.message).toContain("Remote end closed");
    expect(h.calls).toHaveLength(2);
  });

  it("does not retry a 429 and says rate_limited", async () => {
    const h = harness([json({}, 429), json({})]);
    const r = await h.client.get("http://a.test/x");
    expect(r).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(h.calls).toHaveLength(1);
  });

  it("times out a hanging request", async () => {
    // A fetch that never answers but honours the abort signal.
    const hanging = createHttpClient({
      fetch: ((_: string, init?: RequestInit) =>
        new Promise<Response>((_res, rej) =>
          init?.signal?.addEventListener("abort", () => rej(new Error("aborted"))),
        )) as typeof fetch,
      now: () => 0,
      sleep: async () => {},
      random: () => 0,
      timeoutMs: 20,
    });
    const r = await hanging.get("http://slow.test/x");
    expect(r).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } });
    if (!r.ok) expect(r.error.message).toContain("timed out after 20 ms");
  });

  it("opens the breaker after consecutive failures and closes it after the cooldown", async () => {
    const h = harness([json({}, 503), json({}, 503), json({}, 503), json({}, 503), json({ ok: 1 })], {
      retries: 0,
      breakerThreshold: 2,
      breakerCooldownMs: 10_000,
    });
    await h.client.get("http://b.test/1");
    await h.client.get("http://b.test/2");
    expect(h.client.breakerOpen("b.test")).toBe(true);
    const skipped = await h.client.get("http://b.test/3");
    expect(skipped).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } });
    expect(h.calls).toHaveLength(2);
    h.advance(10_001);
    expect(h.client.breakerOpen("b.test")).toBe(false);
    expect((await h.client.get("http://b.test/4")).ok).toBe(false);
    expect(h.calls).toHaveLength(3);
  });

  it("paces requests to the same host", async () => {
    const h = harness([json({}), json({}), json({})], { minIntervalMs: (host) => (host === "em.test" ? 500 : 0) });
    await h.client.get("http://em.test/1");
    await h.client.get("http://em.test/2");
    await h.client.get("http://other.test/1");
    expect(h.sleeps).toEqual([500]);
  });

  it("passes 404 through for the adapter to interpret", async () => {
    const h = harness([json({ error: "no fixture" }, 404)]);
    const r = await h.client.get("http://a.test/x");
    expect(r.ok && r.value.status).toBe(404);
  });
});
