/**
 * Symbol resolution for the MarketData service: code forms first (see parse/resolve-symbol.ts),
 * checked against the universe; then the universe by name/pinyin; then (live) the providers' search.
 * Bare `000001` reads as Ping An Bank unless an index is asked for; the other reading is returned as
 * an alternative so the caller can say so.
 */
import type { SecurityKind, SymbolInfo } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import type { MarketCache, MarketDataProvider, Resolution } from "../../ports/market-data";
import { noMatch, offlineMiss } from "../offline/holdings";
import { REAL_CN } from "../offline/real-cn";
import { inferSymbol, symbolCandidates } from "../parse/resolve-symbol";

const squash = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s._-]+/g, "");

/** English names and short forms of the bundled real A-share series (Chinese names are in the universe). */
const REAL_ALIASES = new Map<string, string>();
for (const m of REAL_CN) {
  REAL_ALIASES.set(squash(m.nameEn), m.id);
  REAL_ALIASES.set(squash(m.name), m.id);
}
for (const [alias, id] of [
  ["spdb", "SH.600000"],
  ["pudong", "SH.600000"],
  ["pudongbank", "SH.600000"],
  ["pinganbank", "SZ.000001"],
  ["sme100", "SZ.399005"],
  ["中小板指", "SZ.399005"],
  ["complant", "SZ.000151"],
] as const)
  REAL_ALIASES.set(alias, id);

/** The bundled real series an English name or short form means (`Ping An Bank`, `SSE Composite`, `SPDB`). */
export function realAlias(input: string): string | undefined {
  return REAL_ALIASES.get(squash(input));
}

/** What resolution needs from the service. */
export interface ResolveDeps {
  mode: "offline" | "live";
  cache: MarketCache;
  searchers: MarketDataProvider[];
  now: () => number;
}

const brief = (s: SymbolInfo) => ({ id: s.id, name: s.name, kind: s.kind, simulated: s.simulated });

function pickByName(input: string, found: SymbolInfo[]): Result<Resolution> {
  const exact = found.filter((s) => s.name === input || s.code === input.toUpperCase());
  if (exact.length === 1 && exact[0])
    return ok({ symbol: exact[0], alternatives: found.filter((s) => s !== exact[0]).slice(0, 4) });
  if (found.length === 1 && found[0]) return ok({ symbol: found[0], alternatives: [] });
  return err("invalid_input", `"${input}" matches ${found.length} symbols; say which one (by code).`, {
    field: "symbol",
    candidates: found.slice(0, 10).map(brief),
  });
}

/** Resolves user input to one symbol (see MarketData.resolve). */
export async function resolveSymbol(
  input: string,
  hint: { kind?: SecurityKind },
  d: ResolveDeps,
): Promise<Result<Resolution>> {
  const raw = input.trim();
  if (raw === "") return err("invalid_input", "symbol is empty", { field: "symbol" });
  if (raw.length > 40) return err("invalid_input", "symbol is too long (at most 40 characters)", { field: "symbol" });
  const aliased = realAlias(raw);
  if (aliased) {
    const s = await d.cache.getSymbol(aliased);
    if (s) return ok({ symbol: s, alternatives: [] });
  }
  const candidates = symbolCandidates(raw, hint.kind);
  if (candidates.length > 0) {
    const known: SymbolInfo[] = [];
    for (const c of candidates) {
      const s = await d.cache.getSymbol(c.id);
      if (s) known.push(s);
    }
    const c0 = candidates[0];
    // Live: the preferred reading wins even when only another one is in the universe yet.
    const preferred = known.find((s) => s.id === c0?.id);
    if (preferred || (known.length > 0 && d.mode === "offline")) {
      const symbol = preferred ?? known[0];
      if (symbol) return ok({ symbol, alternatives: known.filter((s) => s !== symbol) });
    }
    if (c0 && c0.exchange !== "SIM" && c0.exchange !== "US" && d.mode === "live")
      return ok({
        symbol: inferSymbol(c0),
        alternatives: [
          ...known,
          ...candidates
            .slice(1)
            .filter((c) => !known.some((k) => k.id === c.id))
            .map(inferSymbol),
        ],
      });
    if (c0?.exchange === "SIM")
      return err(
        "not_found",
        `No simulated symbol ${c0.id}; the simulated market has SIM.0001–SIM.0300 and indices SIM.IDX1, SIM.IDX2.`,
        {
          symbol: c0.id,
          messages: {
            zh: `没有模拟代码 ${c0.id}；模拟市场包含 SIM.0001–SIM.0300 与指数 SIM.IDX1、SIM.IDX2。`,
            en: `No simulated symbol ${c0.id}; the simulated market has SIM.0001–SIM.0300 and indices SIM.IDX1, SIM.IDX2.`,
          },
        },
      );
    // Letters may be pinyin initials rather than a ticker: the universe decides first.
    if (c0?.exchange === "US") {
      const byName = await d.cache.searchSymbols(raw, 10);
      if (byName.length > 0) return pickByName(raw, byName);
    }
    if (c0 && d.mode === "live")
      return ok({ symbol: inferSymbol(c0), alternatives: candidates.slice(1).map(inferSymbol) });
    if (c0) return offlineMiss(c0.id);
  }
  let found = await d.cache.searchSymbols(raw, 10);
  if (found.length === 0 && d.mode === "live") {
    for (const p of d.searchers) {
      if (!p.search) continue;
      const r = await p.search(raw, 10);
      if (!r.ok) continue;
      await d.cache.upsertSymbols(r.value, d.now());
      found = r.value;
      break;
    }
  }
  if (found.length === 0) return noMatch(raw, d.mode === "offline");
  return pickByName(raw, found);
}
