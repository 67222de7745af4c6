/**
 * The `Screener` port over the D1 market cache (edge): the background screening's map
 * (`background/screen-features.ts`) and the engine's reduce (`engine/screen/reduce-funnel.ts`) run in
 * this request, on the universe the data mode selects (`background/universe.ts`: the simulated market
 * offline). Cached bars only, like every screening; live, the market sync's universe with its
 * coverage, refused before the first sync (background/market-sync/sync-gate.ts).
 */
import { ok } from "../lib/result";
import type { ScreeningResult } from "../contracts/screening";
import { reduceFunnel } from "../engine/screen/reduce-funnel";
import type { MarketCache } from "../ports/market-data";
import type { Screener } from "../ports/screener";
import { screenFeatures, SCREEN_WINDOW } from "../background/screen-features";
import { boardFilter, emptyScreening, noCachedStocksNote, universeFor } from "../background/universe";
import { inUniverse, universeCoverage } from "../background/market-sync/sync-gate";
import type { SyncStore } from "../ports/market-sync";

/** A screener over `cache` for the deployment's data mode. */
export function inProcessScreener(cache: MarketCache, mode: "offline" | "live", sync?: SyncStore): Screener {
  return {
    async run(input, opts = {}) {
      const u = universeFor(mode, input.market);
      const gate = await universeCoverage(sync, u);
      const symbols =
        "refused" in gate ? [] : boardFilter(inUniverse(gate, await cache.listSymbols(u.code, "stock")), input.board);
      const base = { market: input.market, board: input.board, universe: u.code, simulated: u.simulated };
      const notes = u.simulated ? ["Simulated market (SIM): generated data, not real securities."] : [];
      if ("refused" in gate) notes.push(gate.refused);
      else if (gate.coverage) notes.unshift(`Coverage: ${gate.coverage.statement} (market sync).`);
      const coverage = "refused" in gate || !gate.coverage ? {} : { coverage: gate.coverage };
      if (symbols.length === 0)
        return ok(
          emptyScreening(input, u, "refused" in gate ? notes : [...notes, noCachedStocksNote(u, input.board, mode)]),
        );
      const [main, small] = await Promise.all([
        cache.getSeries(u.index),
        u.smallCap ? cache.getSeries(u.smallCap) : Promise.resolve(null),
      ]);
      const index = (main?.bars ?? []).slice(-SCREEN_WINDOW);
      const smallCap = (small?.bars ?? []).slice(-SCREEN_WINDOW);
      if (index.length === 0) notes.push(`index ${u.index} not cached: regime assumed neutral, no relative strength`);
      const features = await screenFeatures(cache, symbols, u, index);
      const o = reduceFunnel(features, {
        limit: input.limit,
        index,
        ...(smallCap.length > 0 ? { smallCap } : {}),
        ...(opts.maxCandidates !== undefined ? { maxCandidates: opts.maxCandidates } : {}),
      });
      return ok({
        ok: true,
        ...base,
        asOf: o.asOf,
        regime: { state: o.regime.state, reasons: o.regime.reasons, breadthAboveMa20Pct: o.breadthAboveMa20Pct },
        summary: o.summary,
        rejections: o.rejections,
        trigger_groups: o.triggerGroups,
        top_sectors: o.topSectors,
        candidates: o.candidates,
        symbols_for_report: o.symbolsForReport,
        notes: [...notes, ...o.notes],
        ...coverage,
      } satisfies ScreeningResult);
    },
  };
}
