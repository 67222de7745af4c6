/**
 * The real A-share day K-lines of the offline bundle (`data/real/cn/<sym>.json`, extracted from
 * hqchart@1.1.15808, Apache-2.0; see data/real/NOTICE.md): symbol rows in the universe's id scheme and
 * cleaned bars. Rows are `[yyyymmdd, prevClose, open, high, low, close, volume, amount]`, unadjusted
 * (ex-rights gaps and suspensions remain). Rows that are not a valid bar (non-positive prices, a high
 * below the open/close, …) or that repeat a date are dropped and counted, never repaired.
 */
import type { Bar } from "../../contracts/analysis";
import type { SymbolInfo } from "../../contracts/market";
import { isValidOhlc } from "../parse/numbers";

/** One extract file as committed under data/real/cn/. */
export interface RealCnFile {
  symbol: string;
  name: string;
  nameEn: string;
  kind: string;
  source: string;
  licence: string;
  fields: string[];
  rows: number[][];
}

/** What the bundle knows of each real series beyond the file: id, pinyin, board, industry, English aliases. */
export interface RealCnMeta {
  file: string;
  id: string;
  name: string;
  nameEn: string;
  pinyin: string;
  kind: "index" | "stock";
  industry: string | null;
}

/** The eight bundled real series (order = how the bundle lists them). */
export const REAL_CN: readonly RealCnMeta[] = [
  {
    file: "000001.sh",
    id: "SH.000001",
    name: "上证指数",
    nameEn: "SSE Composite",
    pinyin: "SZZS",
    kind: "index",
    industry: null,
  },
  {
    file: "399001.sz",
    id: "SZ.399001",
    name: "深证成指",
    nameEn: "SZSE Component",
    pinyin: "SZCZ",
    kind: "index",
    industry: null,
  },
  {
    file: "000300.sh",
    id: "SH.000300",
    name: "沪深300",
    nameEn: "CSI 300",
    pinyin: "HS",
    kind: "index",
    industry: null,
  },
  {
    file: "399005.sz",
    id: "SZ.399005",
    name: "中小100",
    nameEn: "SZSE SME 100",
    pinyin: "ZX",
    kind: "index",
    industry: null,
  },
  {
    file: "399006.sz",
    id: "SZ.399006",
    name: "创业板指",
    nameEn: "ChiNext",
    pinyin: "CYBZ",
    kind: "index",
    industry: null,
  },
  {
    file: "600000.sh",
    id: "SH.600000",
    name: "浦发银行",
    nameEn: "Shanghai Pudong Development Bank",
    pinyin: "PFYH",
    kind: "stock",
    industry: "银行",
  },
  {
    file: "000001.sz",
    id: "SZ.000001",
    name: "平安银行",
    nameEn: "Ping An Bank",
    pinyin: "PAYH",
    kind: "stock",
    industry: "银行",
  },
  {
    file: "000151.sz",
    id: "SZ.000151",
    name: "中成股份",
    nameEn: "China Complant Group",
    pinyin: "ZCGF",
    kind: "stock",
    industry: "建筑装饰",
  },
];

/** The note every real A-share stock answer from the bundle carries. */
export const REAL_CN_NOTE =
  "Offline bundle: real A-share day bars (hqchart 1.1.15808, Apache-2.0) up to 2024-09-19, not live prices. Unadjusted: ex-rights gaps and suspensions remain in stock series.";

/** The note of a real A-share index from the bundle (an index has no ex-rights days to adjust). */
export const REAL_CN_INDEX_NOTE =
  "Offline bundle: real A-share index day bars (hqchart 1.1.15808, Apache-2.0) up to 2024-09-19, not live prices.";

/** A cleaned real series. */
export interface RealCnSeries {
  symbol: SymbolInfo;
  bars: Bar[];
  /** Rows dropped as invalid bars (bad OHLC, non-positive or non-finite numbers, dates out of order). */
  dropped: number;
  rows: number;
}

function isoDate(yyyymmdd: number): string | null {
  const s = String(yyyymmdd);
  if (!/^(19|20)\d{6}$/.test(s)) return null;
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

/** Cleans one extract's rows into bars. */
export function parseRealCnRows(rows: readonly (readonly number[])[]): { bars: Bar[]; dropped: number } {
  const bars: Bar[] = [];
  let dropped = 0;
  for (const r of rows) {
    const [d, , open, high, low, close, volume, amount] = r;
    const date = typeof d === "number" ? isoDate(d) : null;
    const nums = [open, high, low, close, volume];
    const last = bars[bars.length - 1];
    if (
      date === null ||
      nums.some((x) => typeof x !== "number" || !Number.isFinite(x)) ||
      (volume ?? -1) < 0 ||
      !isValidOhlc(open ?? 0, high ?? 0, low ?? 0, close ?? 0) ||
      (last && last.date >= date)
    ) {
      dropped++;
      continue;
    }
    const bar: Bar = {
      date,
      open: open ?? 0,
      high: high ?? 0,
      low: low ?? 0,
      close: close ?? 0,
      volume: volume ?? 0,
    };
    if (typeof amount === "number" && Number.isFinite(amount) && amount >= 0) bar.amount = amount;
    bars.push(bar);
  }
  return { bars, dropped };
}

/** The universe row of a bundled real series. */
export function realCnSymbol(m: RealCnMeta): SymbolInfo {
  const [exchange = "SH", code = ""] = m.id.split(".");
  return {
    id: m.id,
    market: "CN",
    exchange: exchange as "SH" | "SZ",
    code,
    name: m.name,
    pinyin: m.pinyin,
    kind: m.kind,
    board: m.kind === "stock" ? "main" : null,
    industry: m.industry,
    status: "listed",
    currency: "CNY",
    simulated: false,
  };
}

/** Reads the extract files (by `symbol`, e.g. `000001.sh`) into cleaned series; unknown files are refused. */
export function buildRealCn(files: readonly RealCnFile[]): RealCnSeries[] {
  const byName = new Map(files.map((f) => [f.symbol, f]));
  for (const f of files)
    if (!REAL_CN.some((m) => m.file === f.symbol)) throw new Error(`real CN file ${f.symbol} is not in REAL_CN`);
  const out: RealCnSeries[] = [];
  for (const m of REAL_CN) {
    const f = byName.get(m.file);
    if (!f) continue;
    const { bars, dropped } = parseRealCnRows(f.rows);
    out.push({ symbol: realCnSymbol(m), bars, dropped, rows: f.rows.length });
  }
  return out;
}

/** English name of a bundled real symbol (for answers in English and for name look-ups). */
export function realCnEnglishName(id: string): string | undefined {
  return REAL_CN.find((m) => m.id === id)?.nameEn;
}
