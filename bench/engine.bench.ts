/**
 * Engine benchmarks: `analyze` on 500 daily bars (median ms over many runs) and the per-symbol funnel
 * checks alone — series build, L1 liquidity, L2 channels without RPS, L4 triggers of the last 4 bars —
 * over a synthetic 5,300-symbol × 320-bar universe held as bars (no chunk decode, no RPS, no L3, no
 * reduce: bench/background.bench.ts times the whole funnel) in one isolate (CPU ms). Reported, not asserted.
 */
import { describe, expect, it } from "vitest";
import type { Bar } from "../worker/contracts/analysis";
import { analyze } from "../worker/engine/analyze";
import { l1Liquidity, l2Channels } from "../worker/engine/funnel";
import { resolveParams } from "../worker/engine/params";
import { buildSeries } from "../worker/engine/series";
import { createRng, gauss, type Rng, uniform } from "../worker/engine/sim/rng";
import { generateSchematic } from "../worker/engine/sim/schematics";
import { confirmTrigger, triggersAt } from "../worker/engine/triggers";
import { median, record } from "./support/record";

function dates(n: number): string[] {
  const out: string[] = [];
  const d = new Date("2024-01-02T00:00:00Z");
  while (out.length < n) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** A seeded random walk with a drift regime, volatility clustering-free and CN-like sizes. */
function walk(rng: Rng, days: readonly string[]): Bar[] {
  let c = uniform(rng, 3, 80);
  const drift = uniform(rng, -0.002, 0.003);
  const vol = uniform(rng, 0.012, 0.03);
  const v0 = uniform(rng, 2e6, 8e7);
  return days.map((date) => {
    const o = c * (1 + 0.3 * vol * gauss(rng));
    c = Math.max(0.5, c * (1 + drift + vol * gauss(rng)));
    const h = Math.max(o, c) * (1 + Math.abs(0.5 * vol * gauss(rng)));
    const l = Math.min(o, c) * (1 - Math.abs(0.5 * vol * gauss(rng)));
    return { date, open: o, high: h, low: l, close: c, volume: Math.round(v0 * Math.exp(0.3 * gauss(rng))) };
  });
}

describe("engine benchmarks", () => {
  it("analyze on 500 daily bars", () => {
    const rng = createRng(1);
    const days = dates(500);
    const sch = generateSchematic({ kind: "accumulation", market: "US", rng: createRng(8) }).bars.slice(0, 260);
    const pre = walk(rng, days.slice(0, 500 - sch.length));
    const k = (pre[pre.length - 1]?.close ?? 1) / (sch[0]?.open ?? 1);
    const bars: Bar[] = [
      ...pre,
      ...sch.map((b, i) => ({
        ...b,
        date: days[pre.length + i] ?? b.date,
        open: b.open * k,
        high: b.high * k,
        low: b.low * k,
        close: b.close * k,
      })),
    ];
    const bench = walk(createRng(2), days);
    expect(bars.length).toBe(500);
    for (let i = 0; i < 50; i++) analyze(bars, { symbol: "SYNTH", market: "US", benchmark: bench });
    const times: number[] = [];
    for (let i = 0; i < 400; i++) {
      const t0 = performance.now();
      const r = analyze(bars, { symbol: "SYNTH", market: "US", benchmark: bench });
      times.push(performance.now() - t0);
      if (!r.ok) throw new Error(r.error.message);
    }
    record({
      id: "analyze_500_bars_ms",
      name: "analyze() on 500 daily bars (median)",
      value: Math.round(median(times) * 1000) / 1000,
      unit: "ms",
      goal: 1,
    });
  });

  it("per-symbol L1, L2 and L4 checks over 5,300 symbols × 320 bars", () => {
    const days = dates(320);
    const rng = createRng(7);
    const universe = Array.from({ length: 5300 }, () => walk(rng, days));
    const index = walk(createRng(99), days).map((b) => b.close);
    const params = resolveParams();
    let l1 = 0;
    let l2 = 0;
    let l4 = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (const bars of universe) {
      const s = buildSeries(bars, "CN", params);
      const t = s.n - 1;
      if (!l1Liquidity(s, t, "CN").pass) continue;
      l1++;
      if (!l2Channels(s, t, { bench: index }).pass) continue;
      l2++;
      for (let i = t - 3; i <= t; i++)
        for (const sig of triggersAt(s, i)) if (confirmTrigger(s, sig, t).status !== "expired") l4++;
    }
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(
      `funnel: ${universe.length} symbols → L1 ${l1} → L2 ${l2} → live L4 triggers ${l4}; wall ${wall.toFixed(0)} ms`,
    );
    record({
      id: "funnel_checks_l1_l2_l4_5300x320_cpu_ms",
      name: "per-symbol checks only: series + L1 + L2 (no RPS) + L4 triggers, 5,300 × 320 bars from bar objects (no decode, RPS, L3 or reduce; CPU)",
      value: Math.round(cpuMs),
      unit: "ms",
      goal: 2000,
    });
  });
});
