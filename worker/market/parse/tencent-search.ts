/**
 * Tencent smartbox search parser (DOMAIN.md §2.3): `v_hint="sh~600519~<\uXXXX name>~gzmt~GP-A^…"`,
 * records `market~code~name~pinyin~type` separated by `^`; `N` when nothing matches.
 */
import type { SymbolInfo } from "../../contracts/market";
import { err, ok, type Result } from "../../lib/result";
import { cnBoard } from "./resolve-symbol";

function unescape(s: string): string {
  return s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** Parses the smartbox answer into A-share stocks and indices, and US stocks. */
export function parseTencentSearch(text: string): Result<SymbolInfo[]> {
  const m = /v_hint="([^"]*)"/.exec(text);
  if (!m) return err("upstream_unavailable", "tencent search answer has no v_hint");
  const body = m[1] ?? "";
  if (body === "N" || body === "") return ok([]);
  const out: SymbolInfo[] = [];
  for (const rec of body.split("^")) {
    const [mk = "", rawCode = "", rawName = "", py = "", type = ""] = rec.split("~");
    const name = unescape(rawName);
    if (/^(sh|sz|bj)$/.test(mk) && /^\d{6}$/.test(rawCode) && (type.startsWith("GP") || type === "ZS")) {
      const exchange = mk.toUpperCase() as "SH" | "SZ" | "BJ";
      const index = type === "ZS";
      out.push({
        id: `${exchange}.${rawCode}`,
        market: "CN",
        exchange,
        code: rawCode,
        name,
        pinyin: py.toUpperCase(),
        kind: index ? "index" : "stock",
        board: index ? null : cnBoard(rawCode),
        industry: null,
        status: "listed",
        currency: "CNY",
        simulated: false,
      });
    } else if (mk === "us" && type.startsWith("GP")) {
      const code = rawCode.split(".")[0]?.toUpperCase() ?? "";
      if (!/^[A-Z][A-Z-]{0,9}$/.test(code)) continue;
      out.push({
        id: `US.${code}`,
        market: "US",
        exchange: "US",
        code,
        name,
        pinyin: py.toUpperCase(),
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
