/**
 * Handler of `portfolio`: the caller's holdings; `diagnose` runs the one health computation
 * (symbol-analysis.ts, benchmark included) with the position's cost and stop over each holding in parallel (a few at a time), and a holding whose data fails is reported as
 * failed without sinking the others.
 */
import type { Position } from "../../contracts/portfolio";
import { ok } from "../../lib/result";
import type { MarketData } from "../../ports/market-data";
import type { ToolHandler } from "../bind";
import type { HoldingDiagnostic, portfolioSpec } from "../specs/portfolio";
import { analyzeSymbol, ANALYSIS_BARS } from "./symbol-analysis";

const PARALLEL = 6;

async function diagnoseHolding(market: MarketData, p: Position): Promise<HoldingDiagnostic> {
  const base = { code: p.code, name: p.name, shares: p.shares, cost: p.cost };
  const r = await market.dailyBars(p.code, { days: ANALYSIS_BARS });
  if (!r.ok) return { ...base, ok: false, error: r.error.message };
  const { symbol, bars, provenance } = r.value;
  const last = bars[bars.length - 1];
  if (!last) return { ...base, ok: false, error: `no bars for ${symbol.id}` };
  const result = await analyzeSymbol(market, symbol, bars, {
    position: { cost: p.cost, ...(p.stop !== null && p.stop > 0 ? { stop: p.stop } : {}) },
  });
  const marketValue = Math.round(p.shares * last.close * 100) / 100;
  const source = { simulated: provenance.simulated, stale: provenance.stale };
  if (!result.ok) {
    return {
      ...base,
      ok: false,
      error: result.error.message,
      latestClose: last.close,
      latestDate: last.date,
      marketValue,
      ...source,
    };
  }
  const { diagnosis, health, phase } = result.value;
  return {
    ...base,
    ok: true,
    latestClose: last.close,
    latestDate: last.date,
    marketValue,
    healthScore: health.score,
    healthGrade: health.grade,
    phase: phase.name,
    ...(diagnosis
      ? {
          pnlPct: Math.round(diagnosis.pnlPct * 10000) / 100,
          grade: diagnosis.grade,
          stop: diagnosis.stop,
          stopStatus: diagnosis.stopStatus,
          danger: diagnosis.danger,
          warnings: diagnosis.warnings,
          positives: diagnosis.positives,
        }
      : {}),
    ...source,
  };
}

/** Maps `items` through `fn` with at most `limit` in flight, keeping order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      const item = items[i];
      if (item !== undefined) out[i] = await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Reads (and optionally diagnoses) the caller's portfolio. */
export const portfolioHandler: ToolHandler<typeof portfolioSpec> = async (input, deps, ctx) => {
  const portfolio = await deps.portfolio.read(ctx.userId);
  if (input.mode === "view") return ok({ mode: "view", ...portfolio });
  const diagnostics = await mapLimited(portfolio.positions, PARALLEL, (p) => diagnoseHolding(deps.market, p));
  const successfulCount = diagnostics.filter((d) => d.ok).length;
  return ok({
    mode: "diagnose",
    ...portfolio,
    successfulCount,
    failedCount: diagnostics.length - successfulCount,
    diagnostics,
  });
};
