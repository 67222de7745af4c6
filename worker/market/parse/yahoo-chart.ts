/**
 * Yahoo Finance chart v8 parser (DOMAIN.md §2.6): `chart.result[0]` with `meta.gmtoffset`,
 * `timestamp[]`, `indicators.quote[0].{open,high,low,close,volume}` (null-padded) and
 * `indicators.adjclose[0].adjclose`; `chart.error` on failure. Daily bars are scaled by
 * adjclose / close (splits and dividends), recorded as `split_dividend`. The `meta` also names the
 * listing — `longName`/`shortName`, `fullExchangeName`/`exchangeName` (`NasdaqGS`, `NYSE`),
 * `currency`, `instrumentType` (`EQUITY`, `ETF`, `INDEX`) — which resolves a US universe symbol.
 */
import { z } from "zod";
import type { Bar } from "../../contracts/analysis";
import type { Adjustment, MinuteBar, SymbolInfo } from "../../contracts/market";
import type { ProviderListing } from "../../ports/market-data";
import { err, ok, type Result } from "../../lib/result";
import { isValidOhlc, round } from "./numbers";

const Nums = z.array(z.number().nullable());
const Meta = z.object({
  gmtoffset: z.number().optional(),
  currency: z.string().nullable().optional(),
  symbol: z.string().nullable().optional(),
  longName: z.string().nullable().optional(),
  shortName: z.string().nullable().optional(),
  exchangeName: z.string().nullable().optional(),
  fullExchangeName: z.string().nullable().optional(),
  instrumentType: z.string().nullable().optional(),
});
const ChartResponse = z.object({
  chart: z.object({
    result: z
      .array(
        z.object({
          meta: Meta,
          timestamp: z.array(z.number()).optional(),
          indicators: z.object({
            quote: z.array(z.object({ open: Nums, high: Nums, low: Nums, close: Nums, volume: Nums })),
            adjclose: z.array(z.object({ adjclose: Nums })).optional(),
          }),
        }),
      )
      .nullable(),
    error: z.object({ code: z.string(), description: z.string().nullable().optional() }).nullable(),
  }),
});

/** Yahoo's ticker for a symbol, or null when Yahoo does not carry it (Beijing, simulated). */
export function yahooSymbol(symbol: SymbolInfo): string | null {
  if (symbol.exchange === "US") return symbol.code === "SPX" ? "^GSPC" : symbol.code;
  if (symbol.exchange === "SH") return `${symbol.code}.SS`;
  if (symbol.exchange === "SZ") return `${symbol.code}.SZ`;
  return null;
}

interface Row {
  local: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  adjclose: number | null;
}

const nonEmpty = (v: string | null | undefined): string | null =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : null;

/** The listing the chart's meta names (what a US universe symbol resolves to). */
export function listingOf(meta: z.infer<typeof Meta>): ProviderListing {
  const type = nonEmpty(meta.instrumentType)?.toUpperCase();
  return {
    ticker: nonEmpty(meta.symbol),
    name: nonEmpty(meta.longName) ?? nonEmpty(meta.shortName),
    venue: nonEmpty(meta.fullExchangeName) ?? nonEmpty(meta.exchangeName),
    currency: nonEmpty(meta.currency)?.toUpperCase() ?? null,
    kind: type === "EQUITY" ? "stock" : type === "ETF" ? "etf" : type === "INDEX" ? "index" : null,
  };
}

function rows(text: string): Result<{ rows: Row[]; listing: ProviderListing }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err("upstream_unavailable", "yahoo answered something that is not JSON");
  }
  const parsed = ChartResponse.safeParse(json);
  if (!parsed.success) return err("upstream_unavailable", "yahoo chart response has an unexpected shape");
  const { result, error } = parsed.data.chart;
  if (error)
    return err(
      error.code === "Not Found" ? "not_found" : "upstream_unavailable",
      `yahoo: ${error.description ?? error.code}`,
    );
  const r = result?.[0];
  if (!r) return err("not_found", "yahoo returned no chart result");
  const q = r.indicators.quote[0];
  const adj = r.indicators.adjclose?.[0]?.adjclose;
  const offset = r.meta.gmtoffset ?? 0;
  const out: Row[] = [];
  (r.timestamp ?? []).forEach((ts, i) => {
    const open = q?.open[i];
    const high = q?.high[i];
    const low = q?.low[i];
    const close = q?.close[i];
    if (open == null || high == null || low == null || close == null) return;
    const local = new Date((ts + offset) * 1000).toISOString();
    out.push({
      local: `${local.slice(0, 10)} ${local.slice(11, 16)}`,
      open,
      high,
      low,
      close,
      volume: q?.volume[i] ?? 0,
      adjclose: adj?.[i] ?? null,
    });
  });
  return ok({ rows: out, listing: listingOf(r.meta) });
}

/** Daily bars (exchange-local dates), adjusted by adjclose when present, and the listing. */
export function parseYahooDaily(text: string): Result<{ bars: Bar[]; adjust: Adjustment; listing: ProviderListing }> {
  const r = rows(text);
  if (!r.ok) return r;
  let adjusted = false;
  const bars: Bar[] = [];
  for (const row of r.value.rows) {
    const k = row.adjclose !== null && row.close > 0 ? row.adjclose / row.close : 1;
    if (k !== 1) adjusted = true;
    const [open, high, low, close] = [row.open * k, row.high * k, row.low * k, row.close * k].map((x) =>
      round(x, 4),
    ) as [number, number, number, number];
    if (!isValidOhlc(open, high, low, close)) continue;
    const date = row.local.slice(0, 10);
    const prev = bars[bars.length - 1];
    if (prev && prev.date === date) bars.pop();
    bars.push({ date, open, high, low, close, volume: Math.max(0, row.volume) });
  }
  return ok({ bars, adjust: adjusted ? "split_dividend" : "none", listing: r.value.listing });
}

/** Minute bars (exchange-local `YYYY-MM-DD HH:MM`). */
export function parseYahooMinutes(text: string): Result<MinuteBar[]> {
  const r = rows(text);
  if (!r.ok) return r;
  return ok(
    r.value.rows
      .filter((x) => isValidOhlc(x.open, x.high, x.low, x.close))
      .map((x) => ({
        time: x.local,
        open: x.open,
        high: x.high,
        low: x.low,
        close: x.close,
        volume: Math.max(0, x.volume),
      })),
  );
}
