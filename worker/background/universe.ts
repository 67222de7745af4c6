/**
 * Which cached universe a screening or backtest reads: A-shares are the simulated `SIM` market when
 * MARKET_DATA=offline and real `CN` symbols when live; `us` reads US stocks. Each has its main and
 * small-cap index for the regime and relative strength. Screening never fetches: cached bars only.
 */
import type { Board, Market } from "../contracts/analysis";
import type { MarketCode, SymbolInfo } from "../contracts/market";
import type { ScreenBoard, ScreenMarket, ScreeningResult } from "../contracts/screening";

/** A universe to read. */
export interface Universe {
  code: MarketCode;
  /** Engine market rules (CN: limit days, board scaling). */
  engineMarket: Market;
  index: string;
  smallCap: string | null;
  simulated: boolean;
  /** True for the live real markets, which the market sync fills (screenings read its universe). */
  synced?: boolean;
}

/** The universe for a market under the active data mode. */
export function universeFor(mode: "offline" | "live", market: ScreenMarket): Universe {
  const synced = mode === "live";
  if (market === "us")
    return { code: "US", engineMarket: "US", index: "US.SPX", smallCap: null, simulated: false, synced };
  if (mode === "offline")
    return { code: "SIM", engineMarket: "CN", index: "SIM.IDX1", smallCap: "SIM.IDX2", simulated: true, synced: false };
  return { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: "SZ.399006", simulated: false, synced };
}

/**
 * Why a screening of `u` found no stocks to scan: screening reads cached bars only, and offline no US
 * stocks are bundled (the offline whole-market screen is the simulated A-share market).
 */
export function noCachedStocksNote(u: Pick<Universe, "code">, board: ScreenBoard, mode: "offline" | "live"): string {
  const base = `no cached ${u.code} stocks on board ${board}: screening reads cached bars only (MARKET_DATA=${mode})`;
  return u.code === "US" && mode === "offline"
    ? `${base}; the offline data has no US stocks (the whole-market screen offline is the simulated A-share market, market cn)`
    : base;
}

/** The result of a screening of `u` that did not run (refused, or nothing cached): no funnel, no date; `notes` say why. */
export function emptyScreening(
  input: { market: ScreenMarket; board: ScreenBoard },
  u: Pick<Universe, "code" | "simulated">,
  notes: string[],
): ScreeningResult {
  return {
    ok: false,
    market: input.market,
    board: input.board,
    universe: u.code,
    asOf: null,
    simulated: u.simulated,
    regime: { state: "NEUTRAL", reasons: [], breadthAboveMa20Pct: null },
    summary: {
      total_scanned: 0,
      layer1_passed: 0,
      layer2_passed: 0,
      layer3_passed: 0,
      layer4_passed: 0,
      layer5_passed: 0,
    },
    rejections: {},
    trigger_groups: {},
    top_sectors: [],
    candidates: [],
    symbols_for_report: [],
    notes,
  };
}

/** The main index of a universe by its code (the backtest's benchmark). */
export function indexOfUniverse(code: string): string {
  return code === "SIM" ? "SIM.IDX1" : code === "US" ? "US.SPX" : "SH.000001";
}

/** L0: listed stocks of the board (ST and delisted names out; BSE never screened). */
export function boardFilter(symbols: readonly SymbolInfo[], board: ScreenBoard): SymbolInfo[] {
  return symbols.filter((s) => {
    if (s.kind !== "stock" || s.status === "delisted" || /ST/i.test(s.name)) return false;
    const b: Board = s.board ?? "main";
    if (b === "bse") return false;
    return board === "all" || b === board;
  });
}
