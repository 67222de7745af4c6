/**
 * Eastmoney clist as the whole A-share list (DOMAIN.md §2.2): one page of rows with, besides the
 * snapshot fields, f100 industry, f26 listing date (yyyymmdd), f21 float market cap and f297 the
 * row's latest trade date (yyyymmdd). A row without a price (suspended, not yet traded) has no bar.
 */
import type { Bar } from "../../contracts/analysis";
import type { UniverseRow } from "../../ports/market-sync";
import { ok, type Result } from "../../lib/result";
import { readClistPage } from "./eastmoney-clist";
import { EASTMONEY_LOT } from "./eastmoney-kline";
import { isValidOhlc, toNumber } from "./numbers";
import { cnBoard } from "./resolve-symbol";

/** The fields a universe page asks for. */
export const UNIVERSE_FIELDS = "f2,f3,f5,f6,f12,f13,f14,f15,f16,f17,f18,f20,f21,f26,f100,f297";

/** `20261130` (number or string) → `2026-11-30`; anything else → null. */
export function compactDate(value: unknown): string | null {
  const s = typeof value === "number" ? String(Math.trunc(value)) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{8}$/.test(s)) return null;
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** Parses one universe page. An empty market (data null) is an empty page. */
export function parseEastmoneyUniverse(text: string): Result<{ rows: UniverseRow[]; total: number }> {
  const page = readClistPage(text, "list");
  if (!page.ok) return page;
  const rows: UniverseRow[] = [];
  for (const d of page.value.rows) {
    const { code, exchange } = d;
    const name = typeof d.f14 === "string" && d.f14.trim() !== "" ? d.f14.trim() : code;
    const tradeDate = compactDate(d.f297);
    const [open, high, low, close, lots] = [d.f17, d.f15, d.f16, d.f2, d.f5].map(toNumber);
    let bar: Bar | null = null;
    if (tradeDate && open && high && low && close && lots !== null && lots !== undefined && lots > 0)
      if (isValidOhlc(open, high, low, close)) {
        const amount = toNumber(d.f6);
        bar = { date: tradeDate, open, high, low, close, volume: lots * EASTMONEY_LOT };
        if (amount !== null && amount >= 0) bar.amount = amount;
      }
    const industry = typeof d.f100 === "string" && d.f100.trim() !== "" && d.f100 !== "-" ? d.f100.trim() : null;
    rows.push({
      id: `${exchange}.${code}`,
      code,
      exchange,
      name,
      board: cnBoard(code),
      industry,
      st: /ST/i.test(name),
      listedOn: compactDate(d.f26),
      totalCap: toNumber(d.f20),
      floatCap: toNumber(d.f21),
      tradeDate,
      bar,
      prevClose: toNumber(d.f18),
    });
  }
  return ok({ rows, total: page.value.total });
}
