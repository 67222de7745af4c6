/**
 * Engine benchmarks: `analyze` on 500 daily bars on three reference windows (a synthetic walk into a
 * schematic, the S&P 500 to 2009-06 and the SSE Composite to 2015-09: median, mean and p90 wall ms per
 * call, and mean CPU per call, under vitest and from one esbuild bundle, 1,000 calls after 1,000 warm-up
 * calls; the warm-up's own mean CPU, JIT compiling included, beside them) and the per-symbol funnel
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
import { indexOnOrAfter, loadRealBars } from "../test/support/real-bars";
import { record, timing } from "./support/record";

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

/** worker/engine/analyze.ts as `wrangler deploy` ships it: one esbuild bundle (`?shipped`, bench/shipped-plugin.ts). */
const ANALYZE_SHIPPED: string = "../worker/engine/analyze.ts?shipped";

/** analyze() from the bundle. */
async function bundledAnalyze(): Promise<typeof analyze> {
  return ((await import(/* @vite-ignore */ ANALYZE_SHIPPED)) as { analyze: typeof analyze }).analyze;
}

/** analyze() calls before the timed ones (until V8's tier-up has settled), and the timed calls. */
const WARMUP = 1000;
const RUNS = 1000;

describe("engine benchmarks", () => {
  it("analyze on 500 daily bars, three reference windows", async () => {
    const rng = createRng(1);
    const days = dates(500);
    const sch = generateSchematic({ kind: "accumulation", market: "US", rng: createRng(8) }).bars.slice(0, 260);
    const pre = walk(rng, days.slice(0, 500 - sch.length));
    const k = (pre[pre.length - 1]?.close ?? 1) / (sch[0]?.open ?? 1);
    const synthetic: Bar[] = [
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
    const real = (symbol: string, date: string): Bar[] => {
      const all = loadRealBars(symbol);
      const i = indexOnOrAfter(all, date);
      return all.slice(i - 499, i + 1);
    };
    const windows: { id: string; label: string; symbol: string; market: "US" | "CN"; bars: Bar[]; bench?: Bar[] }[] = [
      {
        id: "analyze_500_bars_ms",
        label: "a random walk into a synthetic accumulation, with a benchmark",
        symbol: "SYNTH",
        market: "US",
        bars: synthetic,
        bench: walk(createRng(2), days),
      },
      {
        id: "analyze_500_bars_spx_2009_ms",
        label: "S&P 500 to 2009-06-30 (the 2008–09 bottom)",
        symbol: "SPX",
        market: "US",
        bars: real("SPX", "2009-06-30"),
      },
      {
        id: "analyze_500_bars_sse_2015_ms",
        label: "SSE Composite to 2015-09-30 (the 2015 top and crash)",
        symbol: "000001.sh",
        market: "CN",
        bars: real("000001.sh", "2015-09-30"),
      },
    ];
    for (const [how, run] of [
      ["vitest", analyze],
      ["bundled", await bundledAnalyze()],
    ] as const)
      for (const w of windows) {
        expect(w.bars.length).toBe(500);
        const opts = { symbol: w.symbol, market: w.market, ...(w.bench ? { benchmark: w.bench } : {}) };
        // Warm-up until the JIT has settled: after 100 calls V8 still compiles the engine's larger
        // functions on its background threads during the timed calls (≈ 0.15–0.3 ms of process CPU per
        // timed call over 600, --trace-opt); after 1,000 a few rarely reached ones remain.
        const warm0 = process.cpuUsage();
        for (let i = 0; i < WARMUP; i++) run(w.bars, opts);
        const warm = process.cpuUsage(warm0);
        const times: number[] = [];
        const runs = RUNS;
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          const r = run(w.bars, opts);
          times.push(performance.now() - t0);
          if (!r.ok) throw new Error(r.error.message);
        }
        const cpu = process.cpuUsage(cpu0);
        const id = how === "vitest" ? w.id : w.id.replace(/_ms$/, "_bundled_ms");
        const where =
          how === "vitest"
            ? "under vitest's module runner (every cross-module call goes through its import bindings)"
            : "as one esbuild bundle of worker/engine/analyze.ts (the code as the worker bundle runs it)";
        record({
          id,
          name: `analyze() on 500 daily bars${how === "bundled" ? " (bundled)" : ""}: ${w.label}`,
          ...timing(times),
          unit: "ms",
          // the goals judge the code as it ships; the module-runner figure is the harness's own cost
          ...(how === "bundled" ? { goal: 1 } : {}),
          timed: `wall time of one analyze() call (series, scan, health, stops, targets, triggers) ${where}, ${RUNS} calls after ${WARMUP} warm-up calls`,
        });
        record({
          id: id.replace(/_ms$/, "_cpu_mean_ms"),
          name: `analyze() on 500 daily bars${how === "bundled" ? " (bundled)" : ""}, mean CPU per call: ${w.label}`,
          value: Math.round(((cpu.user + cpu.system) / 1000 / runs) * 1000) / 1000,
          unit: "ms",
          ...(how === "bundled" ? { goal: 0.2 } : {}),
          timed: `process CPU (user + system: garbage collection and any JIT compiling still under way included) over the ${RUNS} timed calls ${where}, divided by ${RUNS}; after ${WARMUP} warm-up calls`,
        });
        record({
          id: id.replace(/_ms$/, "_warmup_cpu_mean_ms"),
          name: `analyze() on 500 daily bars${how === "bundled" ? " (bundled)" : ""}, mean CPU per call of the first ${WARMUP} calls (JIT tier-up included): ${w.label}`,
          value: Math.round(((warm.user + warm.system) / 1000 / WARMUP) * 1000) / 1000,
          unit: "ms",
          timed: `process CPU (user + system) over the ${WARMUP} warm-up calls ${where}, divided by ${WARMUP} (the calls before the timed ones: compiling included)`,
        });
      }
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
