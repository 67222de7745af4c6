/**
 * The whole-market snapshot codec: every series comes back bit for bit as the chunks decode it
 * (ticked and full-double prices, missing amounts, a -0, suspensions leaving calendar gaps), the
 * `lastBars` tail equals the chunks' tail, the bytes are deterministic, and a truncated or foreign
 * object is refused.
 */
import { describe, expect, it } from "vitest";
import type { Bar } from "../../../worker/contracts/analysis";
import { createRng, gauss, type Rng, uniform } from "../../../worker/engine/sim/rng";
import { decodeBarColumns, encodeBarChunks } from "../../../worker/lib/bar-chunks";
import { encodeMarketSnapshot, MarketSnapshot, type SnapshotSeries } from "../../../worker/lib/market-snapshot";
import type { BarColumns } from "../../../worker/engine/series";
import { weekdays } from "../../../bench/support/market-universe";

function bars(rng: Rng, days: readonly string[], tick: boolean, amounts: "all" | "some" | "none"): Bar[] {
  let c = uniform(rng, 1, 4000);
  const px = (x: number) => (tick ? Math.round(x * 100) / 100 : x);
  return days
    .filter((_, i) => i % 37 !== 5) // suspensions: the series skips calendar days others have
    .map((date, i) => {
      const open = c;
      c = Math.max(0.02, c * (1 + 0.05 * gauss(rng)));
      const bar: Bar = {
        date,
        open: px(open),
        high: px(Math.max(open, c) * 1.01),
        low: px(Math.min(open, c) * 0.99),
        close: px(c),
        volume: i % 11 === 3 ? 0 : Math.round(1e8 * Math.exp(2 * gauss(rng))),
      };
      if (amounts === "all" || (amounts === "some" && i % 3 !== 0)) bar.amount = Math.round(bar.volume * c * 100) / 100;
      return bar;
    });
}

function expectSame(a: BarColumns, b: BarColumns): void {
  expect(a.date).toEqual(b.date);
  for (const k of ["open", "high", "low", "close", "volume", "amount"] as const) {
    expect(a[k].length).toBe(b[k].length);
    for (let i = 0; i < a[k].length; i++)
      if (!Object.is(a[k][i], b[k][i])) expect([k, i, a[k][i]]).toEqual([k, i, b[k][i]]);
  }
}

describe("market snapshot codec", () => {
  const rng = createRng(7);
  const days = weekdays(420, "2024-03-01");
  const market: SnapshotSeries[] = [];
  for (let s = 0; s < 40; s++) {
    const list = bars(rng, days.slice(s % 7), s % 3 !== 0, s % 4 === 0 ? "none" : s % 4 === 1 ? "some" : "all");
    if (s === 5 && list[2]) list[2].open = -0;
    const columns = decodeBarColumns(encodeBarChunks(list).map((c) => c.bars));
    market.push({
      symbolId: `SZ.${String(s).padStart(6, "0")}`,
      adjust: "qfq",
      origin: "eastmoney",
      fetchedAt: 1000 + s,
      simulated: s === 2,
      columns,
    });
  }
  const meta = { market: "CN", asOf: days.at(-1) ?? "", runId: "run_一", generation: 3 };
  const bytes = encodeMarketSnapshot(meta, market);

  it("round-trips every series bit for bit, whole and as the chunks' tail", () => {
    const snap = MarketSnapshot.parse(bytes);
    expect(snap?.meta).toEqual(meta);
    const ids = market.map((s) => s.symbolId);
    const all = snap?.columnsMany(ids) ?? [];
    expect(all.map((s) => s.symbolId)).toEqual(ids);
    all.forEach((s, i) => {
      const want = market[i] as SnapshotSeries;
      expect([s.adjust, s.origin, s.fetchedAt, s.simulated]).toEqual([
        want.adjust,
        want.origin,
        want.fetchedAt,
        want.simulated,
      ]);
      expectSame(s.columns, want.columns);
    });
    const tail = snap?.columnsMany([ids[3] ?? "", "SZ.999999", ids[0] ?? ""], 320) ?? [];
    expect(tail.map((s) => s.symbolId)).toEqual([ids[3], ids[0]]);
    expect(tail[0]?.columns.close.length).toBe(320);
    const chunks = (i: number) =>
      decodeBarColumns(
        encodeBarChunks(
          Array.from(market[i]?.columns.date ?? [], (date, j) => {
            const c = market[i]?.columns as BarColumns;
            const b: Bar = {
              date,
              open: c.open[j] ?? 0,
              high: c.high[j] ?? 0,
              low: c.low[j] ?? 0,
              close: c.close[j] ?? 0,
              volume: c.volume[j] ?? 0,
            };
            if (!Number.isNaN(c.amount[j])) b.amount = c.amount[j];
            return b;
          }),
        ).map((c) => c.bars),
        320,
      );
    expectSame(tail[0]?.columns as BarColumns, chunks(3));
    expectSame(tail[1]?.columns as BarColumns, chunks(0));
  });

  it("keeps ticked prices in narrow integers, and is deterministic", () => {
    // A-share-like series (0.01 ticks around 10, ≤ 10% moves, amounts): dates in a byte, prices in
    // two, volume in four, amount as Float64 — under 0.45 of their seven Float64 columns.
    const r = createRng(11);
    const ticked = Array.from({ length: 20 }, (_, s) => {
      let c = 10;
      const list = days.map((date) => {
        const open = c;
        c = Math.round(Math.max(1, c * (1 + Math.max(-0.1, Math.min(0.1, 0.02 * gauss(r))))) * 100) / 100;
        const volume = Math.round(1e6 * Math.exp(0.5 * gauss(r)));
        return { date, open, high: Math.max(open, c), low: Math.min(open, c), close: c, volume, amount: volume * c };
      });
      const columns = decodeBarColumns(encodeBarChunks(list).map((x) => x.bars));
      return { ...(market[0] as SnapshotSeries), symbolId: `SH.${600000 + s}`, columns };
    });
    const bars = ticked.length * days.length;
    expect(encodeMarketSnapshot(meta, ticked).length).toBeLessThan(bars * 7 * 8 * 0.45);
    expect(Buffer.compare(encodeMarketSnapshot(meta, market), bytes)).toBe(0);
  });

  it("refuses a truncated, extended or foreign object", () => {
    expect(MarketSnapshot.parse(bytes.slice(0, bytes.length - 8))).toBeNull();
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect(MarketSnapshot.parse(longer)).toBeNull();
    expect(MarketSnapshot.parse(new TextEncoder().encode("@2|1|2|2024|0|"))).toBeNull();
    const empty = MarketSnapshot.parse(encodeMarketSnapshot({ ...meta, asOf: "" }, []));
    expect(empty?.columnsMany(["SZ.000001"])).toEqual([]);
  });
});
