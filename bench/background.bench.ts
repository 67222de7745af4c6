/**
 * Background-work benchmarks (Node): the whole screening funnel over 5,300 symbols × 320 bars read
 * from cache-format chunks (decode → map phase per symbol → cross-sectional reduce) in one process,
 * and a one-year backtest replay over the same universe. CPU time reported, never asserted.
 */
import { describe, it } from "vitest";
import type { Bar } from "../worker/contracts/analysis";
import { BacktestInput } from "../worker/contracts/backtest";
import { screenFeatures } from "../worker/background/screen-features";
import type { Universe } from "../worker/background/universe";
import { replayBacktest } from "../worker/engine/backtest/replay";
import { resolveParams } from "../worker/engine/params";
import { reduceFunnel } from "../worker/engine/screen/reduce-funnel";
import { createRng, gauss, type Rng, uniform } from "../worker/engine/sim/rng";
import { decodeBarColumnsMany, encodeBarChunks } from "../worker/lib/bar-chunks";
import type { CachedColumns } from "../worker/ports/market-data";
import { record } from "./support/record";

const SYMBOLS = 5300;
const INDUSTRIES = ["电子", "医药", "银行", "食品", "电气", "软件", "矿业", "汽车", "化学", "地产", "机械", "传媒"];

function dates(n: number): string[] {
  const out: string[] = [];
  const d = new Date("2024-01-02T00:00:00Z");
  while (out.length < n) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/**
 * A seeded CN-like walk with amounts (so L1 reads turnover as it does from the cache). Prices are on
 * the A-share tick of 0.01 CNY, as Eastmoney and Tencent deliver them (and as the cache stores them);
 * 17-digit floats would make the chunk JSON several times larger than real cached data.
 */
function walk(rng: Rng, days: readonly string[]): Bar[] {
  let c = uniform(rng, 3, 80);
  const drift = uniform(rng, -0.002, 0.003);
  const vol = uniform(rng, 0.012, 0.03);
  const v0 = uniform(rng, 2e6, 3e7);
  return days.map((date) => {
    const open = c * (1 + 0.3 * vol * gauss(rng));
    c = Math.max(0.5, c * (1 + drift + vol * gauss(rng)));
    const high = Math.max(open, c) * (1 + Math.abs(0.5 * vol * gauss(rng)));
    const low = Math.min(open, c) * (1 - Math.abs(0.5 * vol * gauss(rng)));
    const volume = Math.round(v0 * Math.exp(0.3 * gauss(rng)));
    const tick = (x: number) => Math.round(x * 100) / 100;
    return {
      date,
      open: tick(open),
      high: tick(high),
      low: tick(low),
      close: tick(c),
      volume,
      amount: Math.round(volume * c),
    };
  });
}

function universe(days: number) {
  const cal = dates(days);
  const rng = createRng(20261129);
  const symbols = Array.from({ length: SYMBOLS }, (_, i) => ({
    id: `SIM.${String(i + 1).padStart(4, "0")}`,
    name: `S${i}`,
    industry: INDUSTRIES[i % INDUSTRIES.length] ?? null,
    board: (i % 4 === 0 ? "chinext" : "main") as "main" | "chinext",
  }));
  const bars = symbols.map(() => walk(rng, cal));
  const index = walk(createRng(99), cal);
  return { symbols, bars, index };
}

const SIM: Universe = {
  code: "SIM",
  engineMarket: "CN",
  index: "SIM.IDX1",
  smallCap: null,
  simulated: true,
  synced: false,
};

function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

describe("background benchmarks", () => {
  it("screening funnel over 5,300 symbols × 320 cached bars", async () => {
    // The D1 cache's row format: yearly columnar JSON chunks, decoded per read (as D1MarketCache does).
    // Only the chunks stay alive (as in a Worker, which holds no bar objects besides what it decodes).
    const { u, chunks } = (() => {
      const full = universe(320);
      const rows = new Map(full.symbols.map((s, i) => [s.id, encodeBarChunks(full.bars[i] ?? []).map((c) => c.bars)]));
      return { u: { symbols: full.symbols, index: full.index }, chunks: rows };
    })();
    const cache = {
      getColumnsMany: async (ids: readonly string[], lastBars?: number): Promise<CachedColumns[]> =>
        decodeBarColumnsMany(
          ids.map((id) => chunks.get(id) ?? []),
          lastBars,
        ).map((columns, i) => ({ symbolId: ids[i] ?? "", columns })),
    };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const features = [];
    for (let i = 0; i < u.symbols.length; i += 100)
      features.push(...(await screenFeatures(cache, u.symbols.slice(i, i + 100), SIM, u.index)));
    const out = reduceFunnel(features, { limit: 12, index: u.index });
    const cpu = cpuMs(cpu0);
    const s = out.summary;
    console.log(
      `screening: ${s.total_scanned} → L1 ${s.layer1_passed} → L2 ${s.layer2_passed} → L3 ${s.layer3_passed} → L4 ${s.layer4_passed} → L5 ${s.layer5_passed}; wall ${(performance.now() - t0).toFixed(0)} ms`,
    );
    record({
      id: "funnel_5300x320_cpu_ms",
      name: "screening funnel L0–L5 from cached chunks, 5,300 × 320 bars (CPU)",
      value: Math.round(cpu),
      unit: "ms",
      goal: 2000,
    });
  });

  it("one-year backtest over 5,300 symbols", async () => {
    const u = universe(320 + 250);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await replayBacktest(
      {
        market: "CN",
        label: "SIM",
        simulated: true,
        symbols: u.symbols.map((s, i) => ({ meta: { ...s, code: s.id }, bars: u.bars[i] ?? [] })),
        index: u.index,
      },
      BacktestInput.parse({ hold_days: 15, top_n: 2 }),
      resolveParams(),
    );
    const cpu = cpuMs(cpu0);
    console.log(
      `backtest: ${r?.period} ${r?.trades} trades, ${r?.signal_days} signal days; wall ${(performance.now() - t0).toFixed(0)} ms`,
    );
    record({
      id: "backtest_1y_cpu_ms",
      name: "one-year backtest replay, 5,300 symbols (CPU)",
      value: Math.round(cpu),
      unit: "ms",
      goal: 60000,
    });
  });
});
