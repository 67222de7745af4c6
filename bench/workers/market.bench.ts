/**
 * Market-data benchmark inside workerd: reading the cached daily bars of a 5,300-symbol universe
 * (320 bars each) from D1 through the D1MarketCache adapter — the path breadth and screening take.
 * Reported through the collector, never asserted.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import type { Bar } from "../../worker/contracts/analysis";
import type { SymbolInfo } from "../../worker/contracts/market";
import { createRng, gauss, uniform } from "../../worker/engine/sim/rng";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import type { Metric } from "../support/record";

const SYMBOLS = 5300;
const BARS = 320;
const bindings = env as typeof env & { BENCH_COLLECTOR_URL: string };

async function report(metric: Metric): Promise<void> {
  await fetch(bindings.BENCH_COLLECTOR_URL, { method: "POST", body: JSON.stringify(metric) });
}

function dates(n: number): string[] {
  const out: string[] = [];
  const d = new Date("2025-06-30T00:00:00Z");
  while (out.length < n) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() - 1);
  }
  return out.reverse();
}

it(`reads cached bars for ${SYMBOLS} symbols`, async () => {
  const cache = new D1MarketCache(createDb(env.DB));
  const days = dates(BARS);
  const rng = createRng(5300);
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  const symbols: SymbolInfo[] = [];
  for (let i = 0; i < SYMBOLS; i++) {
    const code = String(600000 + i);
    symbols.push({
      id: `SH.${code}`,
      market: "CN",
      exchange: "SH",
      code,
      name: `S${i}`,
      pinyin: "",
      kind: "stock",
      board: "main",
      industry: null,
      status: "listed",
      currency: "CNY",
      simulated: false,
    });
  }
  await cache.upsertSymbols(symbols, 0);
  const writes: Promise<void>[] = [];
  for (const s of symbols) {
    let c = uniform(rng, 3, 80);
    const bars: Bar[] = days.map((date) => {
      const o = c;
      c = Math.max(0.5, c * (1 + 0.02 * gauss(rng)));
      // Two decimals, as the providers send prices.
      return {
        date,
        open: r2(o),
        high: r2(Math.max(o, c) * 1.01),
        low: r2(Math.min(o, c) * 0.99),
        close: r2(c),
        volume: Math.round(1e7 * Math.exp(0.3 * gauss(rng))),
      };
    });
    writes.push(
      cache.putSeries({ symbolId: s.id, bars, adjust: "qfq", origin: "eastmoney", fetchedAt: 0, simulated: false }),
    );
    if (writes.length >= 25) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  const fromYear = Number(days[0]?.slice(0, 4));
  const times: number[] = [];
  let read = 0;
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const series = await cache.seriesOfMarket("CN", fromYear);
    times.push(performance.now() - t0);
    read = series.reduce((n, s) => n + s.bars.length, 0);
  }
  expect(read).toBe(SYMBOLS * BARS);
  times.sort((a, b) => a - b);
  await report({
    id: "market_cached_bars_5300_ms",
    name: `cached bars read, ${SYMBOLS} symbols × ${BARS} (D1, workerd)`,
    value: Math.round(times[2] ?? 0),
    unit: "ms",
    goal: 2000,
  });
});
