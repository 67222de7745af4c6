/**
 * Eastmoney code-table search parser (DOMAIN.md §2.3, the 2026 endpoint): `result[]` with code,
 * shortName, pinyin, market (0/1/105…), securityTypeName (沪A/深A/京A/指数/美股…).
 */
import { z } from "zod";
import type { SymbolInfo } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import { cnBoard, cnStockExchange } from "./resolve-symbol";

const SearchResponse = z.object({
  result: z
    .array(
      z.object({
        code: z.string(),
        shortName: z.string(),
        pinyin: z.string().optional().nullable(),
        market: z.union([z.number(), z.string()]),
        securityTypeName: z.string().optional().nullable(),
      }),
    )
    .nullable()
    .optional(),
});

/** Parses a search answer into symbols this app can serve (A-shares, CN indices, US stocks). */
export function parseEastmoneySearch(text: string): Result<SymbolInfo[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err("upstream_unavailable", "eastmoney search answered something that is not JSON");
  }
  const parsed = SearchResponse.safeParse(json);
  if (!parsed.success) return err("upstream_unavailable", "eastmoney search response has an unexpected shape");
  const out: SymbolInfo[] = [];
  for (const r of parsed.data.result ?? []) {
    const market = Number(r.market);
    const type = r.securityTypeName ?? "";
    const pinyin = (r.pinyin ?? "").toUpperCase();
    if ((market === 0 || market === 1) && /^\d{6}$/.test(r.code)) {
      const isIndex = type.includes("指数");
      const exchange = market === 1 ? "SH" : cnStockExchange(r.code) === "BJ" ? "BJ" : "SZ";
      out.push({
        id: `${exchange}.${r.code}`,
        market: "CN",
        exchange,
        code: r.code,
        name: r.shortName,
        pinyin,
        kind: isIndex ? "index" : "stock",
        board: isIndex ? null : cnBoard(r.code),
        industry: null,
        status: "listed",
        currency: "CNY",
        simulated: false,
      });
    } else if ((market === 105 || market === 106 || market === 107) && /^[A-Z.-]{1,10}$/.test(r.code)) {
      out.push({
        id: `US.${r.code}`,
        market: "US",
        exchange: "US",
        code: r.code,
        name: r.shortName,
        pinyin,
        kind: "stock",
        board: null,
        industry: null,
        status: "listed",
        currency: "USD",
        simulated: false,
      });
    }
  }
  return ok(out);
}
