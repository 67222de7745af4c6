/**
 * Tencent fqkline parser (DOMAIN.md §2.4): `{"code":0,"data":{"sh600519":{"qfqday"|"day"|"hfqday":
 * [[date, OPEN, CLOSE, HIGH, LOW, volume, …]]}}}`, optionally wrapped as `kline_dayqfq={…}`. Rows may
 * carry extra trailing elements, so columns are read by position. Volume is in lots for main-board
 * and ChiNext stocks and already in shares for STAR stocks and indices (akshare's rule).
 */
import { z } from "zod";
import type { Bar } from "../../contracts/analysis";
import type { SymbolInfo } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import { isValidOhlc, round, toNumber } from "./numbers";

const Row = z.array(z.union([z.string(), z.number(), z.record(z.string(), z.unknown()), z.null()]));
const KlineResponse = z.object({
  code: z.number(),
  msg: z.string().optional(),
  data: z.union([z.record(z.string(), z.record(z.string(), z.unknown())), z.array(z.unknown())]).optional(),
});

/** Tencent's symbol for a CN symbol: `sh600519`, `sz000001`, `bj830799`. */
export function tencentSymbol(symbol: SymbolInfo): string {
  return `${symbol.exchange.toLowerCase()}${symbol.code}`;
}

/** Shares per reported volume unit for this symbol on Tencent K-lines. */
export function tencentVolumeMultiplier(symbol: SymbolInfo): number {
  if (symbol.kind === "index" || symbol.board === "star") return 1;
  return 100;
}

/** Parses a K-line answer for `symbol`. `not_found` when the answer holds no rows for it. */
export function parseTencentKlines(
  text: string,
  symbol: SymbolInfo,
): Result<{ bars: Bar[]; adjust: "qfq" | "none" | "hfq" }> {
  const body = text
    .trim()
    .replace(/^[A-Za-z_$][\w$]*\s*=\s*/, "")
    .replace(/;\s*$/, "");
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return err("upstream_unavailable", "tencent answered something that is not JSON");
  }
  const parsed = KlineResponse.safeParse(json);
  if (!parsed.success) return err("upstream_unavailable", "tencent K-line response has an unexpected shape");
  if (parsed.data.code !== 0) return err("not_found", `tencent has no data for ${symbol.id}`);
  const data = parsed.data.data;
  const entry = data && !Array.isArray(data) ? data[tencentSymbol(symbol)] : undefined;
  if (!entry) return err("not_found", `tencent has no data for ${symbol.id}`);
  const key = (["qfqday", "day", "hfqday"] as const).find((k) => Array.isArray(entry[k]));
  if (!key) return err("not_found", `tencent has no daily rows for ${symbol.id}`);
  const rows = z.array(Row).safeParse(entry[key]);
  if (!rows.success) return err("upstream_unavailable", "tencent K-line rows are malformed");
  const mult = tencentVolumeMultiplier(symbol);
  const bars: Bar[] = [];
  for (const r of rows.data) {
    const date = typeof r[0] === "string" ? r[0] : "";
    const open = toNumber(r[1]);
    const close = toNumber(r[2]);
    const high = toNumber(r[3]);
    const low = toNumber(r[4]);
    const vol = toNumber(r[5]);
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(date) ||
      open === null ||
      close === null ||
      high === null ||
      low === null ||
      vol === null
    )
      return err("upstream_unavailable", "tencent K-line row is malformed");
    if (!isValidOhlc(open, high, low, close)) continue;
    bars.push({ date, open, high, low, close, volume: round(vol * mult, 0) });
  }
  return ok({ bars, adjust: key === "qfqday" ? "qfq" : key === "hfqday" ? "hfq" : "none" });
}
