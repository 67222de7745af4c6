/**
 * Gathers what a regime reading needs through the MarketData port: the market's main and small-cap
 * indices (SIM.IDX1/IDX2 simulated, SH.000001/SZ.399006 real A-shares, US.SPX) and breadth from the
 * stored universe — live, the market sync's universe (`universeBars` reads its members only) — or,
 * for real A-shares without a synced universe, the day's snapshot up/down ratio.
 */
import type { Provenance } from "../../contracts/market";
import { ok, type Result } from "../../lib/result";
import type { MarketData } from "../../ports/market-data";
import type { Breadth, RegimeReading } from "../specs/market-regime";
import { breadthSeries, regimeReading } from "../pure/market-stats";

/** Which market to read. */
export type RegimeMarket = "cn" | "sim" | "us";

const INDICES: Record<RegimeMarket, { main: string; small?: string }> = {
  cn: { main: "SH.000001", small: "SZ.399006" },
  sim: { main: "SIM.IDX1", small: "SIM.IDX2" },
  us: { main: "US.SPX" },
};

/** The default market for the active data: simulated offline, real A-shares live. */
export function defaultRegimeMarket(market: MarketData): RegimeMarket {
  return market.mode === "offline" ? "sim" : "cn";
}

/** Reads the regime of `which`. */
export async function readRegime(
  market: MarketData,
  which: RegimeMarket,
): Promise<Result<{ reading: RegimeReading; breadth: Breadth | null; source: Provenance }>> {
  const ids = INDICES[which];
  const main = await market.dailyBars(ids.main, { days: 260, kind: "index" });
  if (!main.ok) return main;
  const small = ids.small ? await market.dailyBars(ids.small, { days: 260, kind: "index" }) : undefined;
  const notes = [...main.value.provenance.notes];
  if (small && !small.ok) notes.push(`small-cap index ${ids.small} unavailable: ${small.error.message}`);
  let series: ReturnType<typeof breadthSeries> = [];
  let snapshotBreadth: Breadth | null = null;
  {
    const universe = await market.universeBars(which === "sim" ? "SIM" : which === "us" ? "US" : "CN", 40);
    if (universe.length >= 50) series = breadthSeries(universe, 10);
    if (market.mode === "live" && which !== "sim")
      notes.push(
        universe.length > 0
          ? `breadth over the market sync's ${which.toUpperCase()} universe (${universe.length} symbols stored)`
          : `the ${which.toUpperCase()} market sync has not completed: no stored universe for breadth${which === "cn" ? " (the day's snapshot instead)" : ""}`,
      );
    else if (which === "cn") {
      const snap = await market.snapshot("CN");
      if (snap.ok) {
        const ch = snap.value.rows.map((r) => r.changePct).filter((x): x is number => x !== null);
        const n = Math.max(1, ch.length);
        ch.sort((a, b) => a - b);
        snapshotBreadth = {
          date: snap.value.date,
          symbols: ch.length,
          aboveMa20Pct: null,
          upPct: Math.round((1000 * ch.filter((x) => x > 0).length) / n) / 10,
          downPct: Math.round((1000 * ch.filter((x) => x < 0).length) / n) / 10,
          medianChangePct: ch[Math.floor(ch.length / 2)] ?? null,
        };
        if (!snap.value.complete) notes.push("breadth from a partial snapshot");
      } else notes.push(`breadth unavailable: ${snap.error.message}`);
    }
  }
  const reading = regimeReading(main.value, small?.ok ? small.value.bars : undefined, series);
  if (snapshotBreadth) reading.breadth = snapshotBreadth;
  return ok({ reading, breadth: reading.breadth, source: { ...main.value.provenance, notes } });
}
