/**
 * The market benchmarks' seeded universe (bench/background.bench.ts in Node, bench/workers/market.bench.ts
 * in workerd): CN-like random walks with amounts on the 0.01 CNY tick (as Eastmoney and Tencent deliver
 * prices, and as the cache stores them), twelve industries, a quarter on ChiNext.
 */
import type { Bar, Board } from "../../worker/contracts/analysis";
import { createRng, gauss, type Rng, uniform } from "../../worker/engine/sim/rng";

const INDUSTRIES = ["电子", "医药", "银行", "食品", "电气", "软件", "矿业", "汽车", "化学", "地产", "机械", "传媒"];

/** `n` weekdays from `from` on (the synthetic trading calendar). */
export function weekdays(n: number, from = "2024-01-02"): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  while (out.length < n) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** A seeded CN-like walk with amounts (so L1 reads turnover as it does from the cache). */
export function walk(rng: Rng, days: readonly string[]): Bar[] {
  let c = uniform(rng, 3, 80);
  const drift = uniform(rng, -0.002, 0.003);
  const vol = uniform(rng, 0.012, 0.03);
  const v0 = uniform(rng, 2e6, 3e7);
  const tick = (x: number) => Math.round(x * 100) / 100;
  return days.map((date) => {
    const open = c * (1 + 0.3 * vol * gauss(rng));
    c = Math.max(0.5, c * (1 + drift + vol * gauss(rng)));
    const high = Math.max(open, c) * (1 + Math.abs(0.5 * vol * gauss(rng)));
    const low = Math.min(open, c) * (1 - Math.abs(0.5 * vol * gauss(rng)));
    const volume = Math.round(v0 * Math.exp(0.3 * gauss(rng)));
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

/** A bench symbol (the batch-message shape screenings carry). */
export interface BenchSymbol {
  id: string;
  name: string;
  industry: string | null;
  board: Board;
}

/** `symbols` walks of `days` bars and the index; the same seed gives the same first symbols at every size. */
export function benchUniverse(symbols: number, days: number): { symbols: BenchSymbol[]; bars: Bar[][]; index: Bar[] } {
  const cal = weekdays(days);
  const rng = createRng(20261129);
  const list = Array.from({ length: symbols }, (_, i) => ({
    id: `SIM.${String(i + 1).padStart(4, "0")}`,
    name: `S${i}`,
    industry: INDUSTRIES[i % INDUSTRIES.length] ?? null,
    board: (i % 4 === 0 ? "chinext" : "main") as Board,
  }));
  return { symbols: list, bars: list.map(() => walk(rng, cal)), index: walk(createRng(99), cal) };
}
