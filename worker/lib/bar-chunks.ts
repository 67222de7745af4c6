/**
 * Columnar JSON encoding of daily bars, one chunk per calendar year (the D1 cache's row format):
 * `{"d":[dates],"o":[…],"h":[…],"l":[…],"c":[…],"v":[…],"a":[…]?}`. Compact and fast to decode.
 */
import type { Bar } from "../contracts/analysis";
import type { BarColumns } from "../engine/series";

interface Chunk {
  d: string[];
  o: number[];
  h: number[];
  l: number[];
  c: number[];
  v: number[];
  a?: (number | null)[];
}

function isNumbers(x: unknown, n: number): x is number[] {
  if (!Array.isArray(x) || x.length !== n) return false;
  for (let i = 0; i < n; i++) if (typeof x[i] !== "number") return false;
  return true;
}

function isDates(x: unknown): x is string[] {
  if (!Array.isArray(x)) return false;
  for (let i = 0; i < x.length; i++) if (typeof x[i] !== "string") return false;
  return true;
}

function isAmounts(x: unknown, n: number): boolean {
  if (x === undefined) return true;
  if (!Array.isArray(x) || x.length !== n) return false;
  for (let i = 0; i < n; i++) if (x[i] !== null && typeof x[i] !== "number") return false;
  return true;
}

/** Structural check (hand-written: this runs for every cached year of every symbol). */
function isChunk(x: unknown): x is Chunk {
  if (typeof x !== "object" || x === null) return false;
  const c = x as Record<string, unknown>;
  const d = c.d;
  if (!isDates(d)) return false;
  const n = d.length;
  if (!isNumbers(c.o, n) || !isNumbers(c.h, n) || !isNumbers(c.l, n) || !isNumbers(c.c, n) || !isNumbers(c.v, n))
    return false;
  return isAmounts(c.a, n);
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
  return decodeBarColumnsMany([texts], lastBars)[0] ?? emptyColumns();
}

function emptyColumns(): BarColumns {
  const z = new Float64Array(0);
  return { date: [], open: z, high: z, low: z, close: z, volume: z, amount: z };
}

/** `decodeBarColumns` for many series at once, all columns in one shared buffer (one allocation). */
export function decodeBarColumnsMany(
  series: readonly (readonly string[])[],
  lastBars = Number.POSITIVE_INFINITY,
): BarColumns[] {
  const parsedAll = series.map((texts) => lastChunks(texts, lastBars));
  let total = 0;
  for (const p of parsedAll) total += p.n;
  const buf = new Float64Array(6 * total);
  let off = 0;
  return parsedAll.map((p) => {
    const cols = fill(p.chunks, p.n, buf.subarray(6 * off, 6 * (off + p.n)));
    off += p.n;
    return cols;
  });
}

/** The chunks (newest first) holding the last `lastBars` bars, parsed and checked. */
function lastChunks(texts: readonly string[], lastBars: number): { chunks: Chunk[]; n: number } {
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
  return { chunks: parsed, n: Math.min(have, lastBars) };
}

function fill(parsed: readonly Chunk[], n: number, buf: Float64Array): BarColumns {
  const out: BarColumns = {
    date: new Array<string>(n),
    open: buf.subarray(0, n),
    high: buf.subarray(n, 2 * n),
    low: buf.subarray(2 * n, 3 * n),
    close: buf.subarray(3 * n, 4 * n),
    volume: buf.subarray(4 * n, 5 * n),
    amount: buf.subarray(5 * n, 6 * n),
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
