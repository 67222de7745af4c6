/**
 * Golden outputs for the performance work: the screening map + reduce over fixed seeded universes,
 * backtest results on them, and `analyze()` on schematics and walks. Captured from the
 * straightforward implementation before any optimisation (test/golden/engine/perf-golden.json); the
 * equivalence test recomputes them with the current code and demands exact equality.
 */
import { createHash } from "node:crypto";
import type { Bar } from "../../../worker/contracts/analysis";
import { BacktestInput, type BacktestResult } from "../../../worker/contracts/backtest";
import { analyze } from "../../../worker/engine/analyze";
import { replayBacktest } from "../../../worker/engine/backtest/replay";
import { resolveParams } from "../../../worker/engine/params";
import { alignBenchmark } from "../../../worker/engine/relative-strength";
import { reduceFunnel, type FunnelOutcome } from "../../../worker/engine/screen/reduce-funnel";
import { amountsOf, symbolFeatures, type SymbolMeta } from "../../../worker/engine/screen/symbol-features";
import { buildSeries } from "../../../worker/engine/series";
import { createRng, gauss, type Rng, uniform } from "../../../worker/engine/sim/rng";
import { generateSchematic, SCHEMATIC_KINDS } from "../../../worker/engine/sim/schematics";
import { buildSimMarket, SIM_INDEX_COMPOSITE, SIM_INDEX_GROWTH } from "../../../worker/market/offline/sim-market";

/** A universe to screen and backtest. */
export interface GoldenUniverse {
  label: string;
  symbols: { meta: SymbolMeta; bars: Bar[] }[];
  index: Bar[];
  smallCap?: Bar[];
}

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

/** The bench's seeded CN-like walk (with amounts). */
export function walk(rng: Rng, days: readonly string[]): Bar[] {
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
    return { date, open, high, low, close: c, volume, amount: volume * c };
  });
}

/** A bench-style random-walk universe. */
export function walkUniverse(symbols: number, days: number, seed: number): GoldenUniverse {
  const cal = dates(days);
  const rng = createRng(seed);
  return {
    label: `walk-${symbols}x${days}`,
    symbols: Array.from({ length: symbols }, (_, i) => {
      const id = `SIM.${String(i + 1).padStart(4, "0")}`;
      const board = i % 4 === 0 ? "chinext" : "main";
      return {
        meta: { id, code: id, name: i % 97 === 5 ? `*ST${i}` : `S${i}`, industry: INDUSTRIES[i % 12] ?? null, board },
        bars: walk(rng, cal),
      };
    }),
    index: walk(createRng(seed + 1), cal),
  };
}

/** The offline simulated market (Wyckoff schematics inside walks), as the workers tests see it. */
export function simUniverse(stocks: number, days: number, seed: number): GoldenUniverse {
  const sim = buildSimMarket({ seed, stocks, days, endDate: "2026-06-30" });
  return {
    label: `sim-${stocks}x${days}`,
    symbols: sim.symbols
      .filter((s) => s.kind === "stock")
      .map((s) => ({
        meta: { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board },
        bars: sim.bars.get(s.id) ?? [],
      })),
    index: sim.bars.get(SIM_INDEX_COMPOSITE) ?? [],
    smallCap: sim.bars.get(SIM_INDEX_GROWTH) ?? [],
  };
}

/** SHA-256 of a value's JSON. */
export function digest(x: unknown): string {
  return createHash("sha256").update(JSON.stringify(x)).digest("hex");
}

/** The map phase (last 320 bars, 5-bar trigger lookback) and the reduce over a universe. */
export function screenGolden(u: GoldenUniverse): { featuresDigest: string; outcome: FunnelOutcome } {
  const params = resolveParams();
  const feats = u.symbols.map(({ meta, bars }) => {
    const window = bars.slice(-320);
    const s = buildSeries(window, "CN", params);
    return symbolFeatures(
      s,
      s.n - 1,
      meta,
      {
        market: "CN",
        params,
        bench: alignBenchmark(s.date, u.index),
        triggerLookback: 5,
        breadthDays: 10,
        triggersOnlyForL2: false,
      },
      amountsOf(window),
    );
  });
  const index = u.index.slice(-320);
  const outcome = reduceFunnel(feats, {
    limit: 12,
    index,
    ...(u.smallCap ? { smallCap: u.smallCap.slice(-320) } : {}),
  });
  return { featuresDigest: digest(feats), outcome };
}

/** Backtest inputs the golden file covers. */
export const GOLDEN_BACKTESTS: Record<string, unknown> = {
  default: { hold_days: 15, top_n: 2 },
  sltp: { hold_days: 5, top_n: 3, exit_mode: "sltp", take_profit_pct: 12 },
  atr: { hold_days: 10, top_n: 2, exit_mode: "atr", entry_price: "next_close" },
};

/** One backtest over a universe. */
export async function backtestGolden(u: GoldenUniverse, input: unknown): Promise<BacktestResult | null> {
  return replayBacktest(
    {
      market: "CN",
      label: u.label,
      simulated: true,
      symbols: u.symbols,
      index: u.index,
      ...(u.smallCap ? { smallCap: u.smallCap } : {}),
    },
    BacktestInput.parse(input),
    resolveParams(),
  );
}

/** `analyze()` over schematics (both markets) and walks, digested per case. */
export function analyzeGolden(): string[] {
  const out: string[] = [];
  for (let seed = 1; seed <= 24; seed++) {
    const x = generateSchematic({
      kind: SCHEMATIC_KINDS[seed % SCHEMATIC_KINDS.length] ?? "accumulation",
      market: seed % 3 === 0 ? "CN" : "US",
      rng: createRng(seed),
      noise: "realistic",
    });
    out.push(digest(analyze(x.bars, { symbol: "SYNTH", market: x.market, board: x.board })));
  }
  const cal = dates(500);
  const bench = walk(createRng(2), cal);
  for (let seed = 1; seed <= 8; seed++) {
    const bars = walk(createRng(100 + seed), cal);
    out.push(digest(analyze(bars, { symbol: "WALK", market: seed % 2 ? "CN" : "US", benchmark: bench })));
  }
  return out;
}

/** Everything the golden file holds. */
export async function computeGolden() {
  const walkU = walkUniverse(400, 570, 20261129);
  const simU = simUniverse(300, 340, 20260630);
  const screening = { walk: screenGolden(walkU), sim: screenGolden(simU) };
  const backtests: Record<string, BacktestResult | null> = {};
  for (const [name, input] of Object.entries(GOLDEN_BACKTESTS)) {
    backtests[`walk:${name}`] = await backtestGolden(walkU, input);
    backtests[`sim:${name}`] = await backtestGolden(simU, input);
  }
  return { screening, backtests, analyze: analyzeGolden() };
}
