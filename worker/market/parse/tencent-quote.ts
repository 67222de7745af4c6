/**
 * Tencent realtime quote parser (DOMAIN.md §2.4): GBK text `v_sh600519="1~name~code~price~…";`,
 * fields split by `~` (3 price, 4 previous close, 5 open, 6 volume in lots, 30 time, 32 change %,
 * 33 high, 34 low, 37 amount in 10k CNY, 38 turnover %, 45 total market cap in 100 mn CNY).
 * An unknown code answers `v_pv_none_match="1";`.
 */
import type { QuoteRow } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import { toNumber } from "./numbers";

/** Decodes a GBK body (workerd and Node both ship the gbk label). */
export function decodeGbk(bytes: ArrayBuffer | Uint8Array): string {
  return new TextDecoder("gbk").decode(bytes);
}

/** A parsed quote plus its exchange time. */
export interface TencentQuote extends QuoteRow {
  /** `YYYY-MM-DD HH:MM:SS` exchange-local, or null. */
  time: string | null;
}

function mul(v: number | null, by: number): number | null {
  return v === null ? null : v * by;
}

/** Parses the decoded text. Lines for unknown codes are skipped; no line at all is malformed. */
export function parseTencentQuotes(text: string): Result<TencentQuote[]> {
  const out: TencentQuote[] = [];
  let lines = 0;
  for (const m of text.matchAll(/v_([a-z_]+?)(\d{6})?="([^"]*)";?/g)) {
    lines += 1;
    const prefix = m[1] ?? "";
    const code = m[2];
    if (!code || !/^(sh|sz|bj)$/.test(prefix)) continue;
    const f = (m[3] ?? "").split("~");
    if (f.length < 46) continue;
    const t = f[30] ?? "";
    out.push({
      id: `${prefix.toUpperCase()}.${code}`,
      code,
      name: f[1] ?? code,
      price: toNumber(f[3]),
      changePct: toNumber(f[32]),
      open: toNumber(f[5]),
      high: toNumber(f[33]),
      low: toNumber(f[34]),
      prevClose: toNumber(f[4]),
      volume: mul(toNumber(f[6]), 100),
      amount: mul(toNumber(f[37]), 10_000),
      turnoverPct: toNumber(f[38]),
      marketCap: mul(toNumber(f[45]), 1e8),
      time: /^\d{14}$/.test(t)
        ? `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)} ${t.slice(8, 10)}:${t.slice(10, 12)}:${t.slice(12, 14)}`
        : null,
    });
  }
  if (lines === 0) return err("upstream_unavailable", "tencent quote answer has no v_ lines");
  return ok(out);
}
