/**
 * The portfolio at its latest prices: each holding's last close, value and P&L (absolute and %),
 * with totals over cash. A holding whose price cannot be read says why and counts at cost in the
 * totals, so one missing series never hides the rest. The reading room's portfolio page shows it.
 */
import type { Portfolio, PortfolioValuation, PositionValue } from "../../contracts/portfolio";
import type { MarketData } from "../../ports/market-data";

const cents = (x: number): number => Math.round(x * 100) / 100;

async function valueOf(market: MarketData, p: Portfolio["positions"][number]): Promise<PositionValue> {
  const r = await market.dailyBars(p.code, { days: 1 });
  const none = { code: p.code, price: null, priceDate: null, value: null, pnl: null, pnlPct: null };
  if (!r.ok) return { ...none, simulated: false, stale: false, error: r.error.message };
  const last = r.value.bars[r.value.bars.length - 1];
  const { simulated, stale } = r.value.provenance;
  if (!last) return { ...none, simulated, stale, error: `no bars for ${p.code}` };
  const value = cents(p.shares * last.close);
  const basis = p.shares * p.cost;
  return {
    code: p.code,
    price: last.close,
    priceDate: last.date,
    value,
    pnl: cents(value - basis),
    pnlPct: basis > 0 ? Math.round(((value - basis) / basis) * 10000) / 100 : null,
    simulated,
    stale,
  };
}

/** Values `portfolio` at the latest prices `market` has (a few holdings at a time). */
export async function valuePortfolio(market: MarketData, portfolio: Portfolio): Promise<PortfolioValuation> {
  const positions: PositionValue[] = [];
  for (let i = 0; i < portfolio.positions.length; i += 8)
    positions.push(...(await Promise.all(portfolio.positions.slice(i, i + 8).map((p) => valueOf(market, p)))));
  let marketValue = 0;
  let costBasis = 0;
  portfolio.positions.forEach((p, i) => {
    const basis = p.shares * p.cost;
    costBasis += basis;
    marketValue += positions[i]?.value ?? basis;
  });
  const pnl = cents(marketValue - costBasis);
  return {
    positions,
    marketValue: cents(marketValue),
    costBasis: cents(costBasis),
    pnl,
    pnlPct: costBasis > 0 ? Math.round((pnl / costBasis) * 10000) / 100 : null,
    cash: portfolio.freeCash,
    totalValue: cents(marketValue + portfolio.freeCash),
  };
}
