import { describe, expect, it } from "vitest";
import { AnalyzeRequest } from "../../../worker/contracts/analysis";
import { analyze } from "../../../worker/engine/analyze";
import { resolveParams } from "../../../worker/engine/params";
import { detectPivots } from "../../../worker/engine/pivots";
import { buildSeries } from "../../../worker/engine/series";
import { createRng } from "../../../worker/engine/sim/rng";
import { generateSchematic } from "../../../worker/engine/sim/schematics";
import { confirmTrigger } from "../../../worker/engine/triggers";
import { rpsRanks } from "../../../worker/engine/relative-strength";

const acc = generateSchematic({ kind: "accumulation", market: "US", rng: createRng(8) });

describe("analyze request contract", () => {
  const bars = acc.bars.slice(0, 80);
  it("accepts sorted unique bars", () => expect(AnalyzeRequest.safeParse({ bars }).success).toBe(true));
  it.each([
    ["unsorted", [...bars.slice(0, 70), bars[75], ...bars.slice(70, 75)], /not sorted/],
    ["duplicate", [...bars.slice(0, 70), bars[69]], /duplicate date/],
    ["too short", bars.slice(0, 10), /not enough bars/],
    ["non-positive", bars.map((b, i) => (i === 3 ? { ...b, low: 0 } : b)), /Too small|>0|positive/i],
  ])("names the problem for %s input", (_, input, msg) => {
    const r = AnalyzeRequest.safeParse({ bars: input });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues.map((i) => i.message).join("; ")).toMatch(msg);
  });
  it("rejects more than 5,000 bars with a too_big issue", () => {
    const many = Array.from({ length: 5001 }, (_, i) => ({ ...acc.bars[0], date: `2000-01-01`, close: 1 + i }));
    const r = AnalyzeRequest.safeParse({ bars: many });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues.some((i) => i.code === "too_big")).toBe(true);
  });
});

describe("building blocks", () => {
  it("confirms pivots exactly k=3 bars late and alternates them", () => {
    const s = buildSeries(acc.bars, "US", resolveParams());
    const pivots = detectPivots(s);
    expect(pivots.length).toBeGreaterThan(4);
    for (const p of pivots) expect(p.confirmedAt).toBeGreaterThanOrEqual(p.index + 3);
    for (let i = 1; i < pivots.length; i++) expect(pivots[i]?.kind).not.toBe(pivots[i - 1]?.kind);
  });

  it("resolves a trigger within its TTL and leaves a fresh one pending", () => {
    const s = buildSeries(acc.bars, "US", resolveParams());
    const sos = acc.labels.find((l) => l.type === "SOS")?.index ?? 0;
    const done = confirmTrigger(s, { type: "sos", index: sos, reasons: [] }, s.n - 1);
    expect(done.status).not.toBe("pending");
    expect(done.resolvedAt).toBeLessThanOrEqual(sos + 2);
    expect(confirmTrigger(s, { type: "sos", index: s.n - 1, reasons: [] }, s.n - 1).status).toBe("pending");
  });

  it("ranks RPS as a 0–100 percentile with shared ties", () => {
    expect(rpsRanks([1, 3, 2, Number.NaN, 3])).toEqual([
      0,
      83.33333333333334,
      33.33333333333333,
      Number.NaN,
      83.33333333333334,
    ]);
  });

  it("never lowers health when a Test confirms the Spring (monotonic scoring)", () => {
    const x = generateSchematic({ kind: "accumulation", market: "US", rng: createRng(12) });
    const test = x.labels.find((l) => l.type === "Test");
    if (!test) return;
    const before = analyze(x.bars.slice(0, test.index + 1), { market: "US" });
    const after = analyze(x.bars.slice(0, test.index + 3), { market: "US" });
    expect(before.ok && after.ok).toBe(true);
    if (before.ok && after.ok)
      expect(after.value.health.components.events).toBeGreaterThanOrEqual(before.value.health.components.events);
  });
});
