/**
 * The MarketData service (application, over the `MarketCache` and `MarketDataProvider` ports): the
 * cache and a provider chain per market. Offline: bundled data only (the real S&P 500 series and the
 * simulated `SIM` market). Live: cache while fresh, then providers in order (CN: Eastmoney → Tencent
 * → Yahoo; US: Yahoo) with incremental updates written through to the cache; when every provider
 * fails, the cached series is served labelled stale. Every answer says which source answered, which
 * were tried, and whether the data is simulated or stale.
 */
import type { Bar } from "../../contracts/analysis";
import type { MarketCode, Provenance, SourceAttempt, SymbolInfo } from "../../contracts/market";
import { err, ok } from "../../lib/result";
import type {
  CachedSeries,
  MarketCache,
  MarketData,
  MarketDataProvider,
  SyncedUniverse,
} from "../../ports/market-data";
import { resolveSymbol } from "./resolve";
import { createSnapshotReader } from "./snapshot";
import { offlineMiss as bundleMiss } from "../offline/holdings";
import { REAL_CN_INDEX_NOTE, REAL_CN_NOTE } from "../offline/real-cn";
import { simulateSession } from "../offline/sim-intraday";

/** Wiring of the service. */
export interface MarketDataServiceOptions {
  mode: "offline" | "live";
  cache: MarketCache;
  /** Daily-bar chains per market, in order of preference. */
  chains: { CN: MarketDataProvider[]; US: MarketDataProvider[] };
  /** Search providers, in order (live only). */
  searchers: MarketDataProvider[];
  now: () => number;
  /** A cached series younger than this is served without asking providers (default 4 h). */
  freshForMs?: number;
  /** Most snapshot pages fetched per call (default 60 ≈ 6,000 rows). */
  snapshotMaxPages?: number;
  /**
   * The market sync's universe (live): `universeBars` of CN and US reads its members only (nothing
   * before a sync completed), and a live fetch of a US stock records the listing the provider names.
   */
  synced?: SyncedUniverse;
}

/** Relative close difference on the overlap bar that reveals a corporate action (re-adjusted history). */
const ACTION_TOLERANCE = 5e-4;
/** Bars fetched when a symbol has no cache (enough for MA200 and a year of structure). */
const FULL_FETCH = 500;

const SIM_NOTE = "Simulated market (SIM): generated data for exploring the method, not a real security.";
const BUNDLE_NOTE = "Offline bundle: historical series (vega-datasets), not live prices.";
/** The note of a real bundled series: which source, and (A-share stocks) that it is unadjusted. */
const bundleNote = (symbol: SymbolInfo) =>
  symbol.market !== "CN" ? BUNDLE_NOTE : symbol.kind === "index" ? REAL_CN_INDEX_NOTE : REAL_CN_NOTE;

/** Provenance for an answer; `source` is who answered now, `origin` who produced the data. */
export function provenance(
  symbol: SymbolInfo,
  p: Partial<Provenance> & Pick<Provenance, "source" | "origin" | "adjust" | "fetchedAt">,
): Provenance {
  const notes = [...(p.notes ?? [])];
  if (symbol.simulated && !notes.includes(SIM_NOTE)) notes.unshift(SIM_NOTE);
  return {
    source: p.source,
    origin: p.origin,
    asOf: p.asOf ?? null,
    fetchedAt: p.fetchedAt,
    adjust: p.adjust,
    volumeUnit: "shares",
    currency: symbol.currency,
    simulated: symbol.simulated,
    stale: p.stale ?? false,
    notes,
    attempts: p.attempts ?? [],
  };
}

function sameClose(a: Bar, b: Bar): boolean {
  return Math.abs(a.close - b.close) <= ACTION_TOLERANCE * Math.max(a.close, b.close);
}

/** Merges freshly fetched bars onto a cached series; null when the overlap reveals a corporate action. */
export function mergeIncremental(cached: readonly Bar[], fetched: readonly Bar[]): Bar[] | null {
  const last = cached[cached.length - 1];
  if (!last) return [...fetched];
  const overlap = fetched.find((b) => b.date === last.date);
  if (!overlap || !sameClose(overlap, last)) return null;
  return [...cached, ...fetched.filter((b) => b.date > last.date)];
}

/**
 * Trading days from `end` (YYYY-MM-DD) to `now` (epoch ms), over-counted (every weekday plus a margin):
 * how many of the latest bars reach back to `end`. 0 when `end` is today or later.
 */
function tradingDaysAfter(end: string, now: number): number {
  const ms = now - Date.parse(`${end}T00:00:00Z`);
  if (!(ms > 0)) return 0;
  return Math.ceil((ms / 86_400_000) * (5 / 7)) + 10;
}

/** Creates the service. */
export function createMarketDataService(o: MarketDataServiceOptions): MarketData {
  const freshFor = o.freshForMs ?? 4 * 3600_000;
  const iso = (ms: number): string => new Date(ms).toISOString();

  const fromCache = (symbol: SymbolInfo, s: CachedSeries, days: number, extra: Partial<Provenance>) => {
    const bars = s.bars.slice(-days);
    return ok({
      symbol,
      bars,
      provenance: provenance(symbol, {
        source: s.origin === "offline" ? "offline" : "cache",
        origin: s.origin,
        adjust: s.adjust,
        fetchedAt: iso(s.fetchedAt),
        asOf: bars[bars.length - 1]?.date ?? null,
        ...extra,
      }),
    });
  };

  const offlineMiss = (symbol: SymbolInfo) => bundleMiss(symbol.id, symbol.name);

  async function fetchLive(symbol: SymbolInfo, days: number, cached: CachedSeries | null) {
    const attempts: SourceAttempt[] = [];
    const chain = symbol.market === "US" ? o.chains.US : symbol.market === "CN" ? o.chains.CN : [];
    let allNotFound = chain.length > 0;
    for (const p of chain) {
      if (!p.dailyBars || !p.supports(symbol)) {
        attempts.push({ source: p.name, outcome: "skipped", message: "does not carry this symbol" });
        continue;
      }
      const want = Math.max(days + 5, FULL_FETCH);
      const adjust = "qfq" as const;
      const incremental = cached && cached.origin === p.name ? cached.bars.at(-1) : undefined;
      let res = await p.dailyBars(symbol, incremental ? { from: incremental.date, adjust } : { limit: want, adjust });
      let bars: Bar[] | null = null;
      let note: string | undefined;
      if (res.ok && incremental && cached) {
        bars = mergeIncremental(cached.bars, res.value.bars);
        if (!bars) note = "corporate action detected (previous close changed): history refetched";
        if (!bars || bars.length < days) {
          // Re-adjusted history, or a cache shorter than asked for: fetch the whole window again.
          const full = await p.dailyBars(symbol, { limit: Math.max(want, cached.bars.length), adjust });
          if (full.ok && (!bars || full.value.bars.length > bars.length)) {
            res = full;
            bars = full.value.bars;
          } else if (!full.ok && !bars) res = full;
        }
      } else if (res.ok) bars = res.value.bars;
      if (!res.ok || !bars) {
        const e = res.ok ? { code: "upstream_unavailable", message: "no bars" } : res.error;
        if (e.code !== "not_found") allNotFound = false;
        attempts.push({ source: p.name, outcome: "failed", message: e.message });
        continue;
      }
      if (bars.length === 0) {
        attempts.push({ source: p.name, outcome: "failed", message: "returned no bars" });
        continue;
      }
      attempts.push({ source: p.name, outcome: "ok" });
      const now = o.now();
      const named = res.value.name && symbol.name === symbol.code ? { ...symbol, name: res.value.name } : symbol;
      await o.cache.upsertSymbols([named], now);
      // A US stock is what its provider says it is (Yahoo: name, venue, currency, type): a rename shows.
      if (o.synced && res.value.listing && symbol.market === "US" && symbol.kind !== "index")
        await o.synced.recordListing(symbol.id, res.value.listing, now);
      await o.cache.putSeries({
        symbolId: symbol.id,
        bars,
        adjust: res.value.adjust,
        origin: p.name,
        fetchedAt: now,
        simulated: false,
      });
      const slice = bars.slice(-days);
      return ok({
        symbol: named,
        bars: slice,
        provenance: provenance(named, {
          source: p.name,
          origin: p.name,
          adjust: res.value.adjust,
          fetchedAt: iso(now),
          asOf: slice[slice.length - 1]?.date ?? null,
          attempts,
          notes: note ? [note] : [],
        }),
      });
    }
    if (cached && cached.bars.length > 0) {
      const failed = attempts.filter((a) => a.outcome === "failed").map((a) => `${a.source}: ${a.message ?? "failed"}`);
      return fromCache(symbol, cached, days, {
        stale: true,
        attempts,
        notes: [
          `Live providers failed (${failed.join("; ") || "none available"}); serving cached data fetched ${iso(cached.fetchedAt)}.`,
        ],
      });
    }
    if (allNotFound)
      return err("not_found", `No provider knows ${symbol.id}; check the code or search by name.`, {
        symbol: symbol.id,
        attempts,
      });
    return err(
      "upstream_unavailable",
      `Market data for ${symbol.id} is unavailable right now: every provider failed and nothing is cached.`,
      {
        symbol: symbol.id,
        attempts,
      },
    );
  }

  const resolve: MarketData["resolve"] = (input, hint) => resolveSymbol(input, hint ?? {}, o);
  const snapshot = createSnapshotReader(o);

  /** The last `opts.days` bars of the series (the port's `dailyBars` without `end`). */
  const latestBars = async (
    input: string,
    opts: Parameters<MarketData["dailyBars"]>[1],
  ): ReturnType<MarketData["dailyBars"]> => {
    const r = await resolve(input, opts.kind ? { kind: opts.kind } : {});
    if (!r.ok) return r;
    const symbol = r.value.symbol;
    const days = Math.max(1, Math.floor(opts.days));
    const cached = await o.cache.getSeries(symbol.id);
    if (symbol.simulated || o.mode === "offline") {
      if (!cached || cached.bars.length === 0) return offlineMiss(symbol);
      return fromCache(symbol, cached, days, symbol.simulated ? {} : { stale: true, notes: [bundleNote(symbol)] });
    }
    // Fresh enough: fetched recently and long enough (a series shorter than a full fetch is the whole history).
    const longEnough = cached && (cached.bars.length >= days || cached.bars.length < FULL_FETCH);
    const fresh = cached && o.now() - cached.fetchedAt < freshFor && cached.fetchedAt >= (opts.fresherThan ?? 0);
    if (cached && longEnough && fresh) return fromCache(symbol, cached, days, {});
    return fetchLive(symbol, days, cached);
  };

  return {
    mode: o.mode,
    resolve,
    async search(query, limit = 10) {
      const q = query.trim();
      if (q === "") return err("invalid_input", "q: search text is empty", { field: "q" });
      const attempts: SourceAttempt[] = [];
      let results = await o.cache.searchSymbols(q, limit);
      let source: "cache" | "offline" | "eastmoney" | "tencent" = o.mode === "offline" ? "offline" : "cache";
      if (o.mode === "live" && results.filter((r) => !r.simulated).length === 0) {
        for (const p of o.searchers) {
          if (!p.search) continue;
          const r = await p.search(q, limit);
          if (!r.ok) {
            attempts.push({ source: p.name, outcome: "failed", message: r.error.message });
            continue;
          }
          attempts.push({ source: p.name, outcome: "ok" });
          await o.cache.upsertSymbols(r.value, o.now());
          const seen = new Set(results.map((x) => x.id));
          results = [...results, ...r.value.filter((x) => !seen.has(x.id))].slice(0, limit);
          source = p.name === "tencent" ? "tencent" : "eastmoney";
          break;
        }
      }
      const anySim = results.some((r) => r.simulated);
      return ok({
        query: q,
        results,
        provenance: {
          source,
          origin: source,
          asOf: null,
          fetchedAt: iso(o.now()),
          adjust: "none",
          volumeUnit: "shares",
          currency: "CNY",
          simulated: anySim && results.every((r) => r.simulated),
          stale: false,
          notes: anySim ? ["Results marked simulated belong to the simulated market (SIM), not real securities."] : [],
          attempts,
        },
      });
    },
    async dailyBars(input, opts) {
      if (opts.end === undefined) return latestBars(input, opts);
      const end = opts.end;
      const days = Math.max(1, Math.floor(opts.days));
      // Enough of the latest bars to reach back to `end`, then the last `days` of those on or before it.
      const r = await latestBars(input, { ...opts, days: days + tradingDaysAfter(end, o.now()) });
      if (!r.ok) return r;
      const upTo = r.value.bars.filter((b) => b.date <= end);
      if (upTo.length === 0) {
        const id = r.value.symbol.id;
        const from = r.value.bars[0]?.date ?? "?";
        return err("not_found", `no bars of ${id} on or before ${end}: the history here starts ${from}`, {
          symbol: id,
          messages: {
            zh: `${id} 在 ${end} 及之前没有日线：这里的历史从 ${from} 开始。`,
            en: `no bars of ${id} on or before ${end}: the history here starts ${from}`,
          },
        });
      }
      const bars = upTo.slice(-days);
      return ok({ ...r.value, bars, provenance: { ...r.value.provenance, asOf: bars[bars.length - 1]?.date ?? null } });
    },
    async minuteBars(input, { interval }) {
      const r = await resolve(input, {});
      if (!r.ok) return r;
      const symbol = r.value.symbol;
      if (symbol.simulated) {
        const s = await o.cache.getSeries(symbol.id);
        const day = s?.bars.at(-1);
        if (!s || !day) return offlineMiss(symbol);
        const bars = simulateSession(symbol.id, day, interval);
        return ok({
          symbol,
          interval,
          bars,
          provenance: provenance(symbol, {
            source: "offline",
            origin: "offline",
            adjust: "none",
            fetchedAt: iso(s.fetchedAt),
            asOf: bars.at(-1)?.time ?? null,
            notes: ["Intraday path simulated from the simulated daily bar."],
          }),
        });
      }
      if (o.mode === "offline")
        return err(
          "not_found",
          `No offline intraday data for ${symbol.id}: the bundle holds daily bars only (intraday works for simulated SIM symbols, or with MARKET_DATA=live).`,
          {
            symbol: symbol.id,
            messages: {
              zh: `离线模式下没有 ${symbol.id} 的分时数据：离线数据只有日线（模拟代码 SIM.xxxx 可看模拟分时，或设置 MARKET_DATA=live）。`,
              en: `No offline intraday data for ${symbol.id}: the bundle holds daily bars only (intraday works for simulated SIM symbols, or with MARKET_DATA=live).`,
            },
          },
        );
      const attempts: SourceAttempt[] = [];
      const chain = symbol.market === "US" ? o.chains.US : o.chains.CN;
      for (const p of chain) {
        if (!p.minuteBars || !p.supports(symbol)) continue;
        const res = await p.minuteBars(symbol, interval);
        if (!res.ok || res.value.length === 0) {
          attempts.push({
            source: p.name,
            outcome: "failed",
            message: res.ok ? "returned no bars" : res.error.message,
          });
          continue;
        }
        attempts.push({ source: p.name, outcome: "ok" });
        const bars = res.value;
        return ok({
          symbol,
          interval,
          bars,
          provenance: provenance(symbol, {
            source: p.name,
            origin: p.name,
            adjust: "none",
            fetchedAt: iso(o.now()),
            asOf: bars.at(-1)?.time ?? null,
            attempts,
          }),
        });
      }
      return err("upstream_unavailable", `Intraday data for ${symbol.id} is unavailable right now.`, {
        symbol: symbol.id,
        attempts,
      });
    },
    snapshot,
    async universeBars(market: MarketCode, days: number) {
      const fromYear = market === "SIM" ? 0 : new Date(o.now()).getUTCFullYear() - Math.ceil(days / 240) - 1;
      // Live, the real markets are what the sync holds, not whichever symbols happen to be cached.
      const members = o.mode === "live" && market !== "SIM" && o.synced ? await o.synced.members(market) : undefined;
      if (members === null) return [];
      const [symbols, series] = await Promise.all([
        o.cache.listSymbols(market, "stock"),
        o.cache.seriesOfMarket(market, fromYear, days),
      ]);
      const byId = new Map(series.map((s) => [s.symbolId, s]));
      const out: { symbol: SymbolInfo; bars: Bar[] }[] = [];
      for (const symbol of symbols) {
        if (members && !members.has(symbol.id)) continue;
        const s = byId.get(symbol.id);
        if (s && s.bars.length > 0) out.push({ symbol, bars: s.bars.slice(-days) });
      }
      return out;
    },
  };
}
