/**
 * The backtest's two paths give one result: the single call (replayBacktest: features handed to the
 * day's reduce as they are, benchmark windows shared by symbols on one calendar) and the fan-out's
 * (each symbol prepared on its own, days packed into JSON rows, unpacked by the day replay). The
 * universe mixes calendars (gaps, a late listing, duplicate dates) so sharing must tell them apart.
 */
import { describe, expect, it } from "vitest";
import type { Bar, Board, Market } from "../../../worker/contracts/analysis";
import { BacktestInput } from "../../../worker/contracts/backtest";
import { createDayReplay, replayWindow, tradeRules } from "../../../worker/engine/backtest/day-replay";
import { replayBacktest } from "../../../worker/engine/backtest/replay";
import {
  dayIndex,
  prepareScratch,
  prepareSymbol,
  symbolDay,
  type BacktestSymbol,
  type DayRow,
} from "../../../worker/engine/backtest/symbol-days";
import { funnelWindows, type FunnelWindows } from "../../../worker/engine/funnel";
import { resolveParams } from "../../../worker/engine/params";
import type { SymbolMeta } from "../../../worker/engine/screen/symbol-features";
import type { BarColumns, Series } from "../../../worker/engine/series";
import { createRng } from "../../../worker/engine/sim/rng";
import { walk, weekdays } from "../../../bench/support/market-universe";

const INDUSTRIES = ["电子", "医药", "银行", "食品"];

function columnsOf(bars: readonly Bar[]): BarColumns {
  return {
    date: bars.map((b) => b.date),
    open: Float64Array.from(bars, (b) => b.open),
    high: Float64Array.from(bars, (b) => b.high),
    low: Float64Array.from(bars, (b) => b.low),
    close: Float64Array.from(bars, (b) => b.close),
    volume: Float64Array.from(bars, (b) => b.volume),
    amount: Float64Array.from(bars, (b) => b.amount ?? Number.NaN),
  };
}

function universe() {
  const cal = weekdays(420);
  const rng = createRng(314);
  const symbols = Array.from({ length: 48 }, (_, i) => {
    let bars = walk(rng, cal);
    if (i % 9 === 4 || i % 9 === 5) bars = bars.filter((_, t) => t % 17 !== i % 17); // suspended days, one pattern each
    if (i % 11 === 7) bars = bars.slice(60); // listed later
    if (i === 13) bars = [...bars.slice(0, 300), bars[299] as Bar, ...bars.slice(300)]; // a duplicated date
    const id = `SIM.${String(i + 1).padStart(4, "0")}`;
    const meta: SymbolMeta = {
      id,
      code: id,
      name: i === 21 ? `*ST S${i}` : `S${i}`,
      industry: i % 10 === 9 ? null : (INDUSTRIES[i % INDUSTRIES.length] ?? null),
      board: (i % 4 === 0 ? "chinext" : "main") as Board,
    };
    return { meta, bars: i % 2 === 0 ? columnsOf(bars) : bars };
  });
  return { cal, symbols, index: walk(createRng(99), cal) };
}

/** The fan-out's way: symbols prepared alone, rows through JSON, the day replay's `day`. */
function viaRows(u: ReturnType<typeof universe>, input: BacktestInput, market: Market = "CN") {
  const params = resolveParams();
  const prepared = u.symbols
    .filter((x) => ("close" in x.bars ? x.bars.close.length : x.bars.length) > 200)
    .map((x) => prepareSymbol(x.meta, x.bars, market, params, u.index));
  const calendar = u.index.map((b) => b.date);
  const { startK, endK } = replayWindow(calendar, input);
  const replay = createDayReplay({
    market,
    label: "SIM",
    simulated: true,
    input,
    calendar,
    index: u.index,
    startK,
    endK,
  });
  const ctx = { market, params, rules: tradeRules(input, market) };
  for (let k = startK; k <= endK; k++) {
    let eligible = 0;
    let above = 0;
    const rows: DayRow[] = [];
    prepared.forEach((p, sym) => {
      const t = dayIndex(p, calendar[k] ?? "");
      if (t === undefined) return;
      const a = symbolDay(p, sym, t, ctx);
      eligible++;
      if (a.above) above++;
      if (a.row) rows.push(a.row);
    });
    replay.day(k, eligible, above, JSON.parse(JSON.stringify(rows)) as DayRow[], (sym) => {
      const p = prepared[sym];
      if (!p) throw new Error(`no symbol ${sym}`);
      return p.meta;
    });
  }
  return replay.result(prepared.length);
}

describe("backtest paths", () => {
  it("a symbol prepared after another shares its benchmark only on the same calendar, with the same values", () => {
    const u = universe();
    const params = resolveParams();
    let prev: BacktestSymbol | undefined;
    let shared = 0;
    for (const x of u.symbols) {
      const chained = prepareSymbol(x.meta, x.bars, "CN", params, u.index, prev);
      const alone = prepareSymbol(x.meta, x.bars, "CN", params, u.index);
      if (prev && chained.bench === prev.bench) shared++;
      expect(Array.from(chained.bench), x.meta.id).toEqual(Array.from(alone.bench));
      for (const key of ["low250", "high60", "low60", "low20", "low40", "bench20", "bench40"] as const)
        expect(Array.from(chained.windows[key] ?? []), `${x.meta.id} ${key}`).toEqual(
          Array.from(alone.windows[key] ?? []),
        );
      prev = chained;
    }
    expect(shared).toBeGreaterThan(20);
    expect(shared).toBeLessThan(u.symbols.length - 5);
  });

  it("a symbol prepared into a reused scratch has the series, benchmark and windows of one prepared alone", () => {
    const u = universe();
    const params = resolveParams();
    const scratch = prepareScratch();
    let prev: BacktestSymbol | undefined;
    let inScratch = 0;
    for (const x of u.symbols) {
      const reused = prepareSymbol(x.meta, x.bars, "CN", params, u.index, prev, scratch);
      const alone = prepareSymbol(x.meta, x.bars, "CN", params, u.index);
      if (reused.bench.buffer === scratch.buf.buffer) inScratch++;
      expect(Array.from(reused.bench), x.meta.id).toEqual(Array.from(alone.bench));
      const windows = funnelWindows(alone.s, alone.bench);
      for (const key of Object.keys(windows) as (keyof FunnelWindows)[])
        expect(Array.from(reused.windows[key] ?? []), `${x.meta.id} ${key}`).toEqual(Array.from(windows[key] ?? []));
      for (const key of Object.keys(alone.s) as (keyof Series)[]) {
        const a = alone.s[key];
        const b = reused.s[key];
        const list = (v: typeof a): unknown => (typeof v === "object" ? Array.from(v as ArrayLike<unknown>) : v);
        expect(list(b), `${x.meta.id} ${key}`).toEqual(list(a));
      }
      prev = reused;
    }
    expect(inScratch).toBe(u.symbols.length);
  });

  for (const [name, raw] of Object.entries({
    default: { hold_days: 10, top_n: 3 },
    sltp: { hold_days: 5, top_n: 4, exit_mode: "sltp", take_profit_pct: 10 },
    atr: { hold_days: 8, top_n: 3, exit_mode: "atr", entry_price: "next_close" },
  }))
    it(`the single call equals the row path on mixed calendars (${name})`, async () => {
      const u = universe();
      const input = BacktestInput.parse(raw);
      const one = await replayBacktest({ market: "CN", label: "SIM", simulated: true, ...u }, input, resolveParams());
      const rows = viaRows(u, input);
      expect(one?.trades).toBeGreaterThan(5);
      expect(JSON.stringify(one)).toBe(JSON.stringify(rows));
    });

  it("the single call equals the row path on a US market (its L1 rule, no limit rules)", async () => {
    const u = universe();
    const input = BacktestInput.parse({ hold_days: 10, top_n: 3 });
    const one = await replayBacktest({ market: "US", label: "SIM", simulated: true, ...u }, input, resolveParams());
    expect(one?.trades).toBeGreaterThan(5);
    expect(JSON.stringify(one)).toBe(JSON.stringify(viaRows(u, input, "US")));
  });

  it("the single call equals the row path when symbols share an id (trades looked up by id)", async () => {
    const u = universe();
    // Every sixth symbol reuses the id of the one before it: a code's trade is the last passer's.
    const symbols = u.symbols.map((x, i) =>
      i % 6 === 5 ? { ...x, meta: { ...x.meta, id: u.symbols[i - 1]?.meta.id ?? x.meta.id } } : x,
    );
    const input = BacktestInput.parse({ hold_days: 6, top_n: 4 });
    const shared = { ...u, symbols };
    const one = await replayBacktest(
      { market: "CN", label: "SIM", simulated: true, ...shared },
      input,
      resolveParams(),
    );
    expect(one?.trades).toBeGreaterThan(5);
    expect(JSON.stringify(one)).toBe(JSON.stringify(viaRows(shared, input)));
  });

  it("the replay in short passes (symbols prepared again each pass, date walks carried over) equals one pass", async () => {
    const u = universe();
    const input = BacktestInput.parse({ hold_days: 10, top_n: 3 });
    const run = (passSlots?: number) =>
      replayBacktest(
        { market: "CN", label: "SIM", simulated: true, ...u },
        input,
        resolveParams(),
        undefined,
        passSlots === undefined ? {} : { passSlots },
      );
    const one = JSON.stringify(await run());
    // 6 days a pass: not a multiple of the 10-day checkpoint, ≈ 40 passes over the window.
    expect(JSON.stringify(await run(6 * u.symbols.length))).toBe(one);
  });

  it("reports progress every ten days in order and stops when the checkpoint says so", async () => {
    const u = universe();
    const input = BacktestInput.parse({ hold_days: 10, top_n: 3 });
    const { startK, endK } = replayWindow(
      u.index.map((b) => b.date),
      input,
    );
    const seen: [number, string][] = [];
    const full = await replayBacktest(
      { market: "CN", label: "SIM", simulated: true, ...u },
      input,
      resolveParams(),
      async (pct, detail) => {
        seen.push([pct, detail]);
        return true;
      },
    );
    expect(full).not.toBeNull();
    const expected: [number, string][] = [];
    for (let k = startK; k <= endK; k += 10)
      expected.push([Math.round((100 * (k - startK)) / (endK - startK + 1)), `replaying ${u.cal[k] ?? ""}`]);
    expect(seen).toEqual(expected);
    let calls = 0;
    const stopped = await replayBacktest(
      { market: "CN", label: "SIM", simulated: true, ...u },
      input,
      resolveParams(),
      async () => ++calls < 3,
    );
    expect(stopped).toBeNull();
    expect(calls).toBe(3);
  });
});
