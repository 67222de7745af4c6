/**
 * Columnar JSON encoding of daily bars, one chunk per calendar year (the D1 cache's row format):
 * `{"d":[dates],"o":[…],"h":[…],"l":[…],"c":[…],"v":[…],"a":[…]?}`. Compact and fast to decode.
 */
import type { Bar } from "../../contracts/analysis";
import type { BarColumns } from "../../engine/series";

interface Chunk {
  d: string[];
  o: number[];
  h: number[];
  l: number[];
  c: number[];
  v: number[];
  a?: (number | null)[];
}

const isNumbers = (x: unknown, n: number): x is number[] =>
  Array.isArray(x) && x.length === n && x.every((v) => typeof v === "number");

/** Structural check (hand-written: this runs for every cached year of every symbol). */
function isChunk(x: unknown): x is Chunk {
  if (typeof x !== "object" || x === null) return false;
  const c = x as Record<string, unknown>;
  const d = c.d;
  if (!Array.isArray(d) || !d.every((v) => typeof v === "string")) return false;
  const n = d.length;
  if (!isNumbers(c.o, n) || !isNumbers(c.h, n) || !isNumbers(c.l, n) || !isNumbers(c.c, n) || !isNumbers(c.v, n))
    return false;
  return (
    c.a === undefined ||
    (Array.isArray(c.a) && c.a.length === n && c.a.every((v) => v === null || typeof v === "number"))
  );
}

/** Splits bars (ascending) into yearly chunks. */
export function encodeBarChunks(bars: readonly Bar[]): { year: number; bars: string }[] {
  const byYear = new Map<number, Bar[]>();
  for (const b of bars) {
    const y = Number(b.date.slice(0, 4));
    const list = byYear.get(y);
    if (list) list.push(b);
    else byYear.set(y, [b]);
  }
  return [...byYear.entries()].map(([year, list]) => {
    const hasAmount = list.some((b) => b.amount !== undefined);
    const chunk = {
      d: list.map((b) => b.date),
      o: list.map((b) => b.open),
      h: list.map((b) => b.high),
      l: list.map((b) => b.low),
      c: list.map((b) => b.close),
      v: list.map((b) => b.volume),
      ...(hasAmount ? { a: list.map((b) => b.amount ?? null) } : {}),
    };
    return { year, bars: JSON.stringify(chunk) };
  });
}

/** Decodes one chunk; a corrupt chunk decodes to no bars (the series is then refetched). */
export function decodeBarChunk(text: string): Bar[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isChunk(json)) return [];
  const { d, o, h, l, c, v, a } = json;
  const out: Bar[] = new Array<Bar>(d.length);
  for (let i = 0; i < d.length; i++) {
    const bar: Bar = {
      date: d[i] ?? "",
      open: o[i] ?? 0,
      high: h[i] ?? 0,
      low: l[i] ?? 0,
      close: c[i] ?? 0,
      volume: v[i] ?? 0,
    };
    const amt = a?.[i];
    if (amt !== undefined && amt !== null) bar.amount = amt;
    out[i] = bar;
  }
  return out;
}

/**
 * Decodes a series' yearly chunks (ascending) straight into columns — no per-bar objects — keeping
 * only the last `lastBars` bars (chunks before those are not parsed). Equal to
 * `texts.flatMap(decodeBarChunk).slice(-lastBars)` as columns; `amount` is NaN where missing.
 */
export function decodeBarColumns(texts: readonly string[], lastBars = Number.POSITIVE_INFINITY): BarColumns {
  const parsed: Chunk[] = [];
  let have = 0;
  for (let k = texts.length - 1; k >= 0 && have < lastBars; k--) {
    let json: unknown;
    try {
      json = JSON.parse(texts[k] ?? "");
    } catch {
      continue;
    }
    if (!isChunk(json)) continue;
    parsed.push(json);
    have += json.d.length;
  }
  const n = Math.min(have, lastBars);
  const out: BarColumns = {
    date: new Array<string>(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    amount: new Float64Array(n),
  };
  const date = out.date as string[];
  let i = n - 1;
  for (const c of parsed) {
    for (let j = c.d.length - 1; j >= 0 && i >= 0; j--, i--) {
      date[i] = c.d[j] ?? "";
      out.open[i] = c.o[j] ?? 0;
      out.high[i] = c.h[j] ?? 0;
      out.low[i] = c.l[j] ?? 0;
      out.close[i] = c.c[j] ?? 0;
      out.volume[i] = c.v[j] ?? 0;
      out.amount[i] = c.a?.[j] ?? Number.NaN;
    }
  }
  return out;
}
