/**
 * Eastmoney push2 clist parser (DOMAIN.md §2.2): one page of the whole-market snapshot. Fields are
 * keyed by id (f12 code, f14 name, f13 market, f2 price, f3 change %, f5 volume in lots, f6 amount
 * CNY, f15 high, f16 low, f17 open, f18 previous close, f8 turnover %, f20 total market cap CNY).
 * The server caps pages at 100 rows whatever `pz` says.
 */
import { z } from "zod";
import type { QuoteRow } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import { EASTMONEY_LOT } from "./eastmoney-kline";
import { toNumber } from "./numbers";
import { cnStockExchange } from "./resolve-symbol";

const Field = z.union([z.number(), z.string(), z.null()]).optional();
const ClistResponse = z.object({
  data: z
    .object({
      total: z.number(),
      diff: z.union([z.array(z.record(z.string(), Field)), z.record(z.string(), z.record(z.string(), Field))]),
    })
    .nullable(),
});

/** Page size Eastmoney honours (it caps larger `pz` at this since 2025). */
export const EASTMONEY_PAGE_SIZE = 100;

/** One clist row by field id, with its code and exchange read (rows without a 6-digit code are dropped). */
export type ClistRow = Record<string, string | number | null | undefined> & {
  code: string;
  exchange: "SH" | "SZ" | "BJ";
};

/** Reads a clist page's envelope (`what` names the page in errors); an empty market (data null) has no rows. */
export function readClistPage(text: string, what: string): Result<{ rows: ClistRow[]; total: number }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err("upstream_unavailable", "eastmoney answered something that is not JSON");
  }
  const parsed = ClistResponse.safeParse(json);
  if (!parsed.success) return err("upstream_unavailable", `eastmoney ${what} response has an unexpected shape`);
  const data = parsed.data.data;
  if (data === null) return ok({ rows: [], total: 0 });
  const diff = Array.isArray(data.diff) ? data.diff : Object.values(data.diff);
  const rows: ClistRow[] = [];
  for (const d of diff) {
    const code = typeof d.f12 === "string" ? d.f12 : typeof d.f12 === "number" ? String(d.f12).padStart(6, "0") : "";
    if (!/^\d{6}$/.test(code)) continue;
    rows.push({ ...d, code, exchange: d.f13 === 1 ? "SH" : cnStockExchange(code) === "BJ" ? "BJ" : "SZ" });
  }
  return ok({ rows, total: data.total });
}

/** Parses one clist page. An empty market (data null) is an empty page. */
export function parseEastmoneyClist(text: string): Result<{ rows: QuoteRow[]; total: number }> {
  const page = readClistPage(text, "snapshot");
  if (!page.ok) return page;
  const rows: QuoteRow[] = [];
  for (const d of page.value.rows) {
    const { code, exchange } = d;
    const lots = toNumber(d.f5);
    rows.push({
      id: `${exchange}.${code}`,
      code,
      name: typeof d.f14 === "string" ? d.f14 : code,
      price: toNumber(d.f2),
      changePct: toNumber(d.f3),
      open: toNumber(d.f17),
      high: toNumber(d.f15),
      low: toNumber(d.f16),
      prevClose: toNumber(d.f18),
      volume: lots === null ? null : lots * EASTMONEY_LOT,
      amount: toNumber(d.f6),
      turnoverPct: toNumber(d.f8),
      marketCap: toNumber(d.f20),
    });
  }
  return ok({ rows, total: page.value.total });
}
