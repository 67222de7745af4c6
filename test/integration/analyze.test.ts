/**
 * `POST /api/analyze` inside workerd: the engine's answer on the caller's bars parsed with the
 * contract schema, and every bad input answered with the error envelope (400 / 413), never a 500.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Analysis, type Bar, MAX_ANALYZE_BARS } from "../../worker/contracts/analysis";
import { ErrorEnvelope } from "../../worker/contracts/errors";
import { createRng } from "../../worker/engine/sim/rng";
import { generateSchematic } from "../../worker/engine/sim/schematics";

const BASE = "http://wyckoff.test";

function post(body: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${BASE}/api/analyze`, { method: "POST", headers: { "content-type": "application/json" }, body }),
  );
}

function postJson(body: unknown): Promise<Response> {
  return post(JSON.stringify(body));
}

async function errorOf(res: Response): Promise<ErrorEnvelope["error"]> {
  return ErrorEnvelope.parse(await res.json()).error;
}

const schematic = generateSchematic({ kind: "accumulation", market: "US", rng: createRng(11) });
const bars: Bar[] = schematic.bars;
const benchmark = generateSchematic({ kind: "distribution", market: "US", rng: createRng(12) }).bars;

/** A long, valid, strictly ascending series of `n` bars. */
function longSeries(n: number): Bar[] {
  const out: Bar[] = [];
  const d = new Date("2000-01-03T00:00:00Z");
  for (let i = 0; i < n; i++) {
    const c = 50 + 5 * Math.sin(i / 15);
    out.push({ date: d.toISOString().slice(0, 10), open: c, high: c * 1.01, low: c * 0.99, close: c, volume: 1e6 });
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

function withBar(i: number, patch: Partial<Bar>): Bar[] {
  return bars.map((b, k) => (k === i ? { ...b, ...patch } : b));
}

async function expect400(body: unknown, pattern: RegExp): Promise<void> {
  const res = await postJson(body);
  expect(res.status).toBe(400);
  const e = await errorOf(res);
  expect(e.code).toBe("invalid_input");
  expect(e.message).toMatch(pattern);
}

describe("POST /api/analyze", () => {
  it("answers the contract's analysis shape for the caller's bars", async () => {
    const res = await postJson({ symbol: "SYNTH", market: "US", bars, benchmark });
    expect(res.status).toBe(200);
    const a = Analysis.parse(await res.json());
    expect(a.symbol).toBe("SYNTH");
    expect(a.asOf).toBe(bars[bars.length - 1]?.date);
    expect(a.phase.name).toBe(schematic.finalPhase);
    const types = new Set(a.events.map((e) => e.type));
    for (const t of ["SC", "AR", "ST", "Spring", "SOS"] as const) expect(types.has(t), t).toBe(true);
    for (const e of a.events) expect(e.confirmedAt >= e.date).toBe(true);
    expect(a.indicators.rs10).not.toBeNull();
  });

  it("accepts the market in any case", async () => {
    for (const market of ["cn", "Us", "US"]) {
      const res = await postJson({ symbol: "SYNTH", market, bars });
      expect(res.status, market).toBe(200);
      Analysis.parse(await res.json());
    }
  });

  it("accepts exactly 5,000 bars and the minimum of 60", async () => {
    const max = await postJson({ bars: longSeries(MAX_ANALYZE_BARS) });
    expect(max.status).toBe(200);
    expect(Analysis.parse(await max.json()).asOf).toBe(longSeries(MAX_ANALYZE_BARS).at(-1)?.date);
    const min = await postJson({ bars: bars.slice(0, 60) });
    expect(min.status).toBe(200);
  });

  it("answers 413 payload_too_large for more than 5,000 bars or benchmark bars", async () => {
    const res = await postJson({ bars: longSeries(MAX_ANALYZE_BARS + 1) });
    expect(res.status).toBe(413);
    const e = await errorOf(res);
    expect(e.code).toBe("payload_too_large");
    expect(e.message).toMatch(/bars: too many bars \(5001\)/);
    const bench = await postJson({ bars, benchmark: longSeries(MAX_ANALYZE_BARS + 1) });
    expect(bench.status).toBe(413);
    expect((await errorOf(bench)).message).toMatch(/^benchmark: /);
  });

  it("answers 400 for malformed JSON and bodies of the wrong shape", async () => {
    const bad = await post("{bars:");
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toEqual({
      code: "invalid_input",
      message: "request body is not valid JSON",
      details: {
        field: "(body)",
        reason: "invalid_json",
        messages: { en: "request body is not valid JSON", zh: "请求体不是有效的 JSON" },
      },
    });
    await expect400({}, /^bars: /);
    await expect400({ bars: "2024-01-02,1,2,3,4" }, /^bars: /);
    await expect400([bars], /^\(body\): /);
    await expect400({ bars: [...bars.slice(0, 70), "nope"] }, /^bars\.70: /);
    await expect400({ bars, market: "JP" }, /^market: /);
    await expect400({ bars, market: 7 }, /^market: /);
    await expect400({ bars, symbol: "" }, /^symbol: /);
  });

  it("answers 400 naming the bar for unsorted or duplicate dates", async () => {
    const swapped = bars.slice();
    const a = swapped[40];
    const b = swapped[41];
    if (!a || !b) throw new Error("short fixture");
    swapped[40] = b;
    swapped[41] = a;
    await expect400({ bars: swapped }, /^bars\.41\.date: bars are not sorted ascending/);
    await expect400({ bars: withBar(30, { date: bars[29]?.date ?? "" }) }, /^bars\.30\.date: duplicate date/);
  });

  it("answers 400 for non-positive or inconsistent prices, bad dates and bad numbers", async () => {
    await expect400({ bars: withBar(12, { close: 0 }) }, /^bars\.12\.close: /);
    await expect400({ bars: withBar(13, { low: -1 }) }, /^bars\.13\.low: /);
    await expect400({ bars: withBar(14, { volume: -5 }) }, /^bars\.14\.volume: /);
    const b = bars[15];
    if (!b) throw new Error("short fixture");
    await expect400({ bars: withBar(15, { high: b.low * 0.9 }) }, /^bars\.15: high must be/);
    await expect400({ bars: withBar(16, { date: "2024-02-30" }) }, /^bars\.16\.date: date is not a real calendar day/);
    await expect400({ bars: withBar(17, { date: "17/01/2024" }) }, /^bars\.17\.date: date must be YYYY-MM-DD/);
    const text = JSON.stringify({ bars }).replace(/"open":([0-9.]+)/, '"open":"$1"');
    const res = await post(text);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^bars\.0\.open: /);
  });

  it("answers 400 for a series too short to analyse", async () => {
    await expect400({ bars: bars.slice(0, 59) }, /not enough bars: need at least 60, got 59/);
    await expect400({ bars: [] }, /not enough bars/);
  });

  it("answers 404 with the envelope for other methods", async () => {
    const res = await exports.default.fetch(new Request(`${BASE}/api/analyze`));
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe("not_found");
  });
});
