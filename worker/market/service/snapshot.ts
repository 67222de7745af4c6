/**
 * Whole-market snapshot: the simulated market from its cached series (last two bars per symbol);
 * the real A-share market from Eastmoney clist, paged at 100 rows, stopping at a page budget
 * (`complete: false` says so). Names from the snapshot refresh the universe.
 */
import type { MarketCode, QuoteRow, SnapshotAnswer, SourceAttempt } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import type { MarketCache, MarketDataProvider } from "../../ports/market-data";
import { cnBoard } from "../parse/resolve-symbol";

/** What the reader needs. */
export interface SnapshotDeps {
  mode: "offline" | "live";
  cache: MarketCache;
  chains: { CN: MarketDataProvider[]; US: MarketDataProvider[] };
  now: () => number;
  snapshotMaxPages?: number;
}

const pct = (a: number, b: number): number => Math.round((a / b - 1) * 10000) / 100;

/** Creates `MarketData.snapshot`. */
export function createSnapshotReader(d: SnapshotDeps): (market: MarketCode) => Promise<Result<SnapshotAnswer>> {
  const iso = (ms: number): string => new Date(ms).toISOString();
  return async (market) => {
    if (market === "SIM") {
      const [symbols, series] = await Promise.all([
        d.cache.listSymbols("SIM", "stock"),
        d.cache.seriesOfMarket("SIM", 0),
      ]);
      const byId = new Map(series.map((s) => [s.symbolId, s]));
      const rows: QuoteRow[] = [];
      let date: string | null = null;
      for (const s of symbols) {
        const bars = byId.get(s.id)?.bars ?? [];
        const last = bars.at(-1);
        const prev = bars.at(-2);
        if (!last) continue;
        if (date === null || last.date > date) date = last.date;
        rows.push({
          id: s.id,
          code: s.code,
          name: s.name,
          price: last.close,
          changePct: prev ? pct(last.close, prev.close) : null,
          open: last.open,
          high: last.high,
          low: last.low,
          prevClose: prev?.close ?? null,
          volume: last.volume,
          amount: last.amount ?? null,
          turnoverPct: null,
          marketCap: null,
        });
      }
      return ok({
        market,
        date,
        rows,
        complete: true,
        provenance: {
          source: "offline",
          origin: "offline",
          asOf: date,
          fetchedAt: iso(series[0]?.fetchedAt ?? d.now()),
          adjust: "none",
          volumeUnit: "shares",
          currency: "CNY",
          simulated: true,
          stale: false,
          notes: ["Simulated market (SIM): generated data, not real securities."],
          attempts: [],
        },
      });
    }
    if (market !== "CN")
      return err("not_found", `No whole-market snapshot for ${market}; snapshots cover CN (live) and SIM.`);
    if (d.mode === "offline")
      return err(
        "not_found",
        "No offline snapshot of the real A-share market; the simulated market (SIM) is available offline.",
        { offline: true },
      );
    const attempts: SourceAttempt[] = [];
    for (const p of d.chains.CN) {
      if (!p.snapshotPage) continue;
      const first = await p.snapshotPage("CN", 1);
      if (!first.ok) {
        attempts.push({ source: p.name, outcome: "failed", message: first.error.message });
        continue;
      }
      const rows = [...first.value.rows];
      const size = Math.max(1, first.value.rows.length);
      const pages = Math.ceil(first.value.total / size);
      const budget = Math.min(pages, d.snapshotMaxPages ?? 60);
      let complete = pages <= budget;
      for (let page = 2; page <= budget; page++) {
        const r = await p.snapshotPage("CN", page);
        if (!r.ok) {
          complete = false;
          attempts.push({ source: p.name, outcome: "failed", message: `page ${page}: ${r.error.message}` });
          break;
        }
        rows.push(...r.value.rows);
        if (r.value.rows.length === 0) break;
      }
      attempts.push({ source: p.name, outcome: "ok" });
      const now = d.now();
      await d.cache.upsertSymbols(
        rows.map((r) => {
          const [exchange = "SZ"] = r.id.split(".");
          return {
            id: r.id,
            market: "CN" as const,
            exchange: exchange as "SH" | "SZ" | "BJ",
            code: r.code,
            name: r.name,
            pinyin: "",
            kind: "stock" as const,
            board: cnBoard(r.code),
            industry: null,
            status: "listed" as const,
            currency: "CNY" as const,
            simulated: false,
          };
        }),
        now,
      );
      const notes = complete
        ? []
        : [`Partial snapshot: ${rows.length} of ${first.value.total} rows (page budget or a failed page).`];
      return ok({
        market,
        date: null,
        rows,
        complete,
        provenance: {
          source: p.name,
          origin: p.name,
          asOf: null,
          fetchedAt: iso(now),
          adjust: "none",
          volumeUnit: "shares",
          currency: "CNY",
          simulated: false,
          stale: false,
          notes,
          attempts,
        },
      });
    }
    return err("upstream_unavailable", "The A-share snapshot is unavailable right now: every provider failed.", {
      attempts,
    });
  };
}
