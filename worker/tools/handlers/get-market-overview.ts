/** Handler of `get_market_overview`: main indices, regime and breadth; missing pieces are listed, not hidden. */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { getMarketOverviewSpec } from "../specs/get-market-overview";
import { pctChange } from "../pure/market-stats";
import { defaultRegimeMarket, readRegime } from "./read-regime";

const LIVE_INDICES = ["SH.000001", "SZ.399001", "SZ.399006", "SH.000016", "SH.000905"];
const OFFLINE_INDICES = ["SIM.IDX1", "SIM.IDX2", "US.SPX"];

/** Builds the overview. */
export const getMarketOverviewHandler: ToolHandler<typeof getMarketOverviewSpec> = async (_input, deps) => {
  const ids = deps.market.mode === "offline" ? OFFLINE_INDICES : LIVE_INDICES;
  const indices = [];
  const unavailable: { id: string; reason: string }[] = [];
  let source = null;
  for (const id of ids) {
    const r = await deps.market.dailyBars(id, { days: 2, kind: "index" });
    if (!r.ok) {
      unavailable.push({ id, reason: r.error.message });
      continue;
    }
    const [prev, last] = r.value.bars.length >= 2 ? r.value.bars.slice(-2) : [undefined, r.value.bars[0]];
    if (!last) continue;
    source ??= r.value.provenance;
    indices.push({
      id,
      name: r.value.symbol.name,
      date: last.date,
      close: last.close,
      pctChg: prev ? pctChange(prev.close, last.close) : null,
      volume: last.volume,
      amount: last.amount ?? null,
      simulated: r.value.provenance.simulated,
      source: `${r.value.provenance.source}${r.value.provenance.stale ? " (stale)" : ""}`,
    });
  }
  const regime = await readRegime(deps.market, defaultRegimeMarket(deps.market));
  if (!regime.ok) unavailable.push({ id: "regime", reason: regime.error.message });
  const base = regime.ok ? regime.value.source : source;
  if (!base) {
    const first = unavailable[0];
    return {
      ok: false,
      error: {
        code: "upstream_unavailable",
        message: `No index data is available: ${first?.reason ?? "unknown"}`,
        details: { unavailable },
      },
    };
  }
  const notes = [...base.notes];
  if (indices.some((i) => i.simulated) && indices.some((i) => !i.simulated))
    notes.push("Mixed data: simulated indices (SIM) next to the real, historical S&P 500 series.");
  return ok({
    indices,
    unavailable,
    regime: regime.ok ? regime.value.reading : null,
    breadth: regime.ok ? regime.value.breadth : null,
    source: { ...base, notes },
  });
};
