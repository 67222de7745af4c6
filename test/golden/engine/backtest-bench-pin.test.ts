/**
 * The bench's backtest input, pinned: the same seeded universe `npm run bench` replays (columns, as
 * the cache reads them; six industries, a quarter on ChiNext), cut to 600 symbols, one year after
 * 320 bars of history. The whole result's JSON — every metric, the NAV curve, the trade list, the
 * unfillable count — must stay byte for byte what the straightforward replay gave (captured at
 * 20f83cd, before the issue-21 replay work). Change the digest only when a change of results is
 * intended (as with perf-golden.json), and say so in the commit.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Board } from "../../../worker/contracts/analysis";
import { BacktestInput } from "../../../worker/contracts/backtest";
import { replayBacktest } from "../../../worker/engine/backtest/replay";
import { resolveParams } from "../../../worker/engine/params";
import type { BarColumns } from "../../../worker/engine/series";
import { createRng } from "../../../worker/engine/sim/rng";
import { walk, weekdays } from "../../../bench/support/market-universe";

const PINNED = {
  sha256: "414b9979906a82d66da4bdf6fcea3c3ff0659491d8e45a836b78c66f0a13896d",
  trades: 384,
  signalDays: 238,
  skippedUnfillable: 11,
};

describe("the bench's backtest input", () => {
  it("replays to the pinned result, byte for byte", async () => {
    const cal = weekdays(320 + 250);
    const rng = createRng(20261129);
    const symbols = Array.from({ length: 600 }, (_, i) => {
      const bars = walk(rng, cal);
      const columns: BarColumns = {
        date: bars.map((b) => b.date),
        open: Float64Array.from(bars, (b) => b.open),
        high: Float64Array.from(bars, (b) => b.high),
        low: Float64Array.from(bars, (b) => b.low),
        close: Float64Array.from(bars, (b) => b.close),
        volume: Float64Array.from(bars, (b) => b.volume),
        amount: Float64Array.from(bars, (b) => b.amount ?? Number.NaN),
      };
      const id = `SIM.${String(i + 1).padStart(4, "0")}`;
      const industry = ["电子", "医药", "银行", "食品", "电气", "软件"][i % 6] ?? null;
      return {
        meta: { id, code: id, name: `S${i}`, industry, board: (i % 4 === 0 ? "chinext" : "main") as Board },
        bars: columns,
      };
    });
    const index = walk(createRng(99), cal);
    const r = await replayBacktest(
      { market: "CN", label: "SIM", simulated: true, symbols, index },
      BacktestInput.parse({ hold_days: 15, top_n: 2, start: cal[320] }),
      resolveParams(),
    );
    expect([r?.trades, r?.signal_days, r?.skipped_unfillable]).toEqual([
      PINNED.trades,
      PINNED.signalDays,
      PINNED.skippedUnfillable,
    ]);
    expect(createHash("sha256").update(JSON.stringify(r)).digest("hex")).toBe(PINNED.sha256);
  }, 300_000);
});
