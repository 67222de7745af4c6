/**
 * The cache's chunk codec: v2 (scaled varint columns) round-trips every bar bit for bit, v1 (JSON)
 * rows written before still read, a series may mix both, corrupt chunks decode to nothing, and v2
 * is much smaller than the JSON on provider-like prices.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Bar } from "../../../worker/contracts/analysis";
import { createRng, gauss, type Rng, uniform } from "../../../worker/engine/sim/rng";
import {
  decodeBarChunk,
  decodeBarColumns,
  decodeBarColumnsMany,
  decodeBarsTail,
  encodeBarChunks,
  encodeBarChunksV1,
} from "../../../worker/lib/bar-chunks";
import { weekdays } from "../../../bench/support/market-universe";

/** Prices either on a 0.01 tick (as CN providers send them) or full doubles (as Yahoo's adjusted ones). */
function bars(rng: Rng, days: readonly string[], tick: boolean, amounts: "all" | "some" | "none"): Bar[] {
  let c = uniform(rng, 1, 400);
  const px = (x: number) => (tick ? Math.round(x * 100) / 100 : x);
  return days.map((date, i) => {
    const open = c;
    c = Math.max(0.02, c * (1 + 0.03 * gauss(rng)));
    const volume = i % 11 === 3 ? 0 : Math.round(1e7 * Math.exp(gauss(rng)));
    const bar: Bar = {
      date,
      open: px(open),
      high: px(Math.max(open, c) * 1.01),
      low: px(Math.min(open, c) * 0.99),
      close: px(c),
      volume,
    };
    if (amounts === "all" || (amounts === "some" && i % 5 !== 0))
      bar.amount = tick ? volume * px(c) : volume * c * 1.0001;
    return bar;
  });
}

function same(a: readonly Bar[], b: readonly Bar[]): void {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => {
    const y = b[i];
    expect(y?.date).toBe(x.date);
    for (const k of ["open", "high", "low", "close", "volume"] as const) expect(Object.is(y?.[k], x[k])).toBe(true);
    expect(Object.is(y?.amount, x.amount)).toBe(true);
  });
}

describe("bar chunks", () => {
  const rng = createRng(2112);

  it("v2 round-trips tick and full-precision prices, with all, some or no amounts, across years", () => {
    for (const tick of [true, false])
      for (const amounts of ["all", "some", "none"] as const) {
        const series = bars(rng, weekdays(600, "2023-11-20"), tick, amounts);
        const chunks = encodeBarChunks(series);
        expect(chunks.map((c) => c.year)).toEqual([2023, 2024, 2025, 2026]);
        for (const c of chunks) expect(c.bars.startsWith("@2|")).toBe(true);
        same(
          chunks.flatMap((c) => decodeBarChunk(c.bars)),
          series,
        );
      }
  });

  it("v2 keeps odd values exactly: integers, large amounts, tiny prices, a leap day, one-bar chunks", () => {
    const series: Bar[] = [
      { date: "2024-02-29", open: 0.001, high: 1e-7, low: 1e-7, close: 3, volume: 0, amount: 123456789012.34 },
      { date: "2024-12-31", open: 1234.5678, high: 1e4, low: 0.1, close: 0.30000000000000004, volume: 2 ** 40 },
      { date: "2025-01-01", open: 5, high: 5, low: 5, close: 5, volume: 7.5, amount: 1e15 },
    ];
    const chunks = encodeBarChunks(series);
    expect(chunks.map((c) => c.year)).toEqual([2024, 2025]);
    same(
      chunks.flatMap((c) => decodeBarChunk(c.bars)),
      series,
    );
  });

  it("v2 deltas past 2^31 and 2^35 come back with their sign, rising and falling", () => {
    const volumes = [2 ** 45, 3, 2 ** 33 + 1, 1, 2 ** 31, 2 ** 31 - 1, 0, 2 ** 36 + 7, 2 ** 30, 2 ** 50 - 1, 5];
    const days = weekdays(volumes.length, "2024-03-04");
    const series: Bar[] = volumes.map((v, i) => ({
      date: days[i] ?? "",
      open: 1,
      high: 1,
      low: 1,
      close: 1,
      volume: v,
      amount: v * 3 + 0.5,
    }));
    const [chunk] = encodeBarChunks(series);
    expect(chunk?.bars.startsWith("@2|")).toBe(true);
    same(decodeBarChunk(chunk?.bars ?? ""), series);
    const c = decodeBarColumns([chunk?.bars ?? ""], 4);
    expect([...c.volume]).toEqual(volumes.slice(-4));
  });

  it("decodeBarColumnsMany gives series on one calendar one shared date list, and others their own", () => {
    const days = weekdays(400, "2024-06-03");
    const a = bars(rng, days, true, "all");
    const b = bars(rng, days, true, "none");
    const late = bars(rng, days.slice(100), true, "all");
    const [ca, cb, cl, cb2] = decodeBarColumnsMany(
      [a, b, late, b].map((s) => encodeBarChunks(s).map((c) => c.bars)),
      320,
    );
    expect(ca?.date).toEqual(days.slice(-320));
    expect(cb?.date).toBe(ca?.date);
    expect(cl?.date).toEqual(days.slice(100).slice(-300));
    expect(cl?.date).not.toBe(ca?.date);
    expect(cb2?.date).toEqual(days.slice(-320));
    expect([...(cb?.close ?? [])]).toEqual(b.slice(-320).map((x) => x.close));
  });

  it("rows written as v1 JSON still read, alone and mixed with v2 chunks in one series", () => {
    const series = bars(rng, weekdays(500, "2024-03-01"), true, "some");
    const v1 = encodeBarChunksV1(series).map((c) => c.bars);
    const v2 = encodeBarChunks(series).map((c) => c.bars);
    expect(v1[0]?.startsWith("{")).toBe(true);
    same(v1.flatMap(decodeBarChunk), series);
    const mixed = [v1[0] ?? "", v2[1] ?? "", v1[2] ?? ""];
    same(mixed.flatMap(decodeBarChunk), series);
    const cols = decodeBarColumns(mixed, 320);
    const tail = series.slice(-320);
    expect(cols.close.length).toBe(320);
    tail.forEach((b, i) => {
      expect(cols.date[i]).toBe(b.date);
      expect(cols.close[i]).toBe(b.close);
      expect(cols.volume[i]).toBe(b.volume);
      expect(Object.is(cols.amount[i], b.amount ?? Number.NaN)).toBe(true);
    });
  });

  it("dates v2 cannot carry (not a canonical day of the chunk's year) are written as v1", () => {
    const series: Bar[] = [{ date: "2024-01-001", open: 1, high: 1, low: 1, close: 1, volume: 1 }];
    const [chunk] = encodeBarChunks(series);
    expect(chunk?.bars.startsWith("{")).toBe(true);
    same(decodeBarChunk(chunk?.bars ?? ""), series);
  });

  it("a corrupt v2 chunk decodes to no bars and is skipped by the column reader", () => {
    const series = bars(rng, weekdays(300, "2024-06-03"), true, "all");
    const texts = encodeBarChunks(series).map((c) => c.bars);
    const good = texts[1] ?? "";
    for (const bad of [
      good.slice(0, -3),
      `${good}0`,
      good.replace("|", "|x"),
      good.slice(0, 40) + "~" + good.slice(41),
      "@2|",
      "@2|1|3|2024|7|000000|",
    ]) {
      expect(decodeBarChunk(bad), bad.slice(0, 60)).toEqual([]);
      const cols = decodeBarColumnsMany([[texts[0] ?? "", bad]])[0];
      expect(cols?.close.length).toBe(decodeBarChunk(texts[0] ?? "").length);
      // Only the last 50 wanted: a corrupt newest chunk (even one whose header reads) is passed over
      // for the one before it, and the series beside it in the same read is unaffected.
      const [tail, beside] = decodeBarColumnsMany([[texts[0] ?? "", bad], texts], 50);
      const older = decodeBarChunk(texts[0] ?? "").slice(-50);
      expect([...(tail?.close ?? [])]).toEqual(older.map((b) => b.close));
      expect(tail?.date).toEqual(older.map((b) => b.date));
      expect([...(beside?.close ?? [])]).toEqual(
        texts
          .flatMap(decodeBarChunk)
          .slice(-50)
          .map((b) => b.close),
      );
    }
  });

  it("decodeBarsTail is the last bars of every chunk decoded to bars", () => {
    const series = bars(rng, weekdays(500, "2023-03-01"), true, "some");
    const texts = encodeBarChunks(series).map((c) => c.bars);
    for (const k of [1, 40, 200, 320, 1000]) same(decodeBarsTail(texts, k), series.slice(-k));
    same(decodeBarsTail(texts), series);
    same(
      decodeBarsTail(
        encodeBarChunksV1(series).map((c) => c.bars),
        40,
      ),
      series.slice(-40),
    );
  });

  it("v2 holds provider-like bars in well under half the JSON's bytes", () => {
    const series = bars(rng, weekdays(240, "2025-01-02"), true, "all");
    const v1 = encodeBarChunksV1(series).reduce((n, c) => n + c.bars.length, 0);
    const v2 = encodeBarChunks(series).reduce((n, c) => n + c.bars.length, 0);
    expect(v2).toBeLessThan(0.5 * v1);
  });
  it("the encoder's bytes are pinned: rows written today stay byte-identical to rows written before", () => {
    // Three 400-bar series across a year boundary and a weekend-free calendar: tick prices with
    // amounts, full doubles with some amounts, tick prices without amounts. Digest of the v2 rows.
    const pin = createRng(77);
    const out: string[] = [];
    for (const [tick, amounts] of [
      [true, "all"],
      [false, "some"],
      [true, "none"],
    ] as const) {
      const d = new Date("2023-11-01T00:00:00Z");
      const days: string[] = [];
      while (days.length < 400) {
        if (d.getUTCDay() % 6 !== 0) days.push(d.toISOString().slice(0, 10));
        d.setUTCDate(d.getUTCDate() + 1);
      }
      out.push(...encodeBarChunks(bars(pin, days, tick, amounts)).map((x) => `${x.year}:${x.bars}`));
    }
    const text = out.join("\n");
    expect(text.length).toBe(54357);
    expect(createHash("sha256").update(text).digest("hex")).toBe(
      "bf28ed669f416addaebaef24053714762dedab097322853c42dc25f341d40738",
    );
  });
});
