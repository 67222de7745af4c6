/**
 * The D1 cache's row format for daily bars: one chunk per calendar year. Two encodings read back:
 *
 * - **v2** (written now): `@2|<lastClose>|<n>|<year>|<bodyLength>|<scales>|<dates>|<o>|<h>|<l>|<c>|<v>|<a>` — each
 *   numeric column as decimal-scaled integers (`scales`: one digit per column, `-` for a missing
 *   amount column, `r` for a column kept as exact decimal text), delta- and zig-zag-coded in a
 *   printable base-32 varint; dates as day-of-year deltas; a missing amount as `!`. About a third of
 *   the JSON's bytes, and decoded by character arithmetic into typed arrays without per-bar objects
 *   or a JSON parse. `lastClose` (the JSON number text) lets SQL read a series' last close with
 *   `substr` (market-sync-repo.ts).
 * - **v1** (rows written before): columnar JSON `{"d":[dates],"o":[…],"h":[…],"l":[…],"c":[…],"v":[…],"a":[…]?}`.
 *
 * Encoding is exact: a column is scaled only when every value comes back bit for bit (`m / 10^k`
 * is correctly rounded for |m| < 2^53), else it is kept as decimal text; a chunk whose dates are
 * not canonical days of its year is written as v1. Both decode to the same bars.
 */
import type { Bar } from "../contracts/analysis";
import type { BarColumns } from "../engine/series";

import { decodeV1, encodeV1, type Chunk } from "./bar-chunk-v1";
import { decodeV2, encodeV2, headV2, readV2, V2, type V2Head } from "./bar-chunk-v2";

/** Either encoding; null when the chunk is corrupt. */
function decodeChunk(text: string): Chunk | null {
  return text.startsWith(V2) ? decodeV2(text) : decodeV1(text);
}

// ---- public API ----

/** Splits bars (ascending) into yearly chunks (v2; v1 for a year whose dates v2 cannot carry). */
export function encodeBarChunks(bars: readonly Bar[]): { year: number; bars: string }[] {
  const byYear = new Map<number, Bar[]>();
  for (const b of bars) {
    const y = Number(b.date.slice(0, 4));
    const list = byYear.get(y);
    if (list) list.push(b);
    else byYear.set(y, [b]);
  }
  return [...byYear.entries()].map(([year, list]) => ({ year, bars: encodeV2(year, list) ?? encodeV1(list) }));
}

/** The v1 (JSON) encoding of the same chunks: what rows written before v2 hold (tests, migration checks). */
export function encodeBarChunksV1(bars: readonly Bar[]): { year: number; bars: string }[] {
  const byYear = new Map<number, Bar[]>();
  for (const b of bars) {
    const y = Number(b.date.slice(0, 4));
    const list = byYear.get(y);
    if (list) list.push(b);
    else byYear.set(y, [b]);
  }
  return [...byYear.entries()].map(([year, list]) => ({ year, bars: encodeV1(list) }));
}

/** Decodes one chunk (either encoding); a corrupt chunk decodes to no bars (the series is then refetched). */
export function decodeBarChunk(text: string): Bar[] {
  const c = decodeChunk(text);
  return c ? barsOf(c.n, c.date, c.open, c.high, c.low, c.close, c.volume, c.amount) : [];
}

function barsOf(
  n: number,
  date: readonly string[],
  open: ArrayLike<number>,
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  amount: ArrayLike<number | null> | undefined,
): Bar[] {
  const out: Bar[] = new Array<Bar>(n);
  for (let i = 0; i < n; i++) {
    const bar: Bar = {
      date: date[i] ?? "",
      open: open[i] ?? 0,
      high: high[i] ?? 0,
      low: low[i] ?? 0,
      close: close[i] ?? 0,
      volume: volume[i] ?? 0,
    };
    const amt = amount?.[i];
    if (amt !== undefined && amt !== null && !Number.isNaN(amt)) bar.amount = amt;
    out[i] = bar;
  }
  return out;
}

/**
 * A series' yearly chunks (ascending) as bars, only the last `lastBars` (chunks before those are not
 * parsed): `texts.flatMap(decodeBarChunk).slice(-lastBars)`, decoded through the columns.
 */
export function decodeBarsTail(texts: readonly string[], lastBars = Number.POSITIVE_INFINITY): Bar[] {
  const c = decodeBarColumns(texts, lastBars);
  return barsOf(c.close.length, c.date, c.open, c.high, c.low, c.close, c.volume, c.amount);
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

/**
 * `decodeBarColumns` for many series at once, all columns in one shared buffer (one allocation):
 * v2 chunks are planned from their headers and decoded in place, straight into the buffer.
 */
export function decodeBarColumnsMany(
  series: readonly (readonly string[])[],
  lastBars = Number.POSITIVE_INFINITY,
): BarColumns[] {
  const plans = series.map((texts) => planTail(texts, lastBars));
  let total = 0;
  for (const p of plans) total += p.n;
  const buf = new Float64Array(6 * total);
  let off = 0;
  // Series of one market mostly share their trading days: dates are decoded into a scratch list and
  // a series whose dates equal the previous one's gets that one's array (read-only) — one date list
  // per calendar, not per series.
  let maxN = 0;
  for (const p of plans) maxN = Math.max(maxN, p.n);
  const scratch = new Array<string>(maxN).fill("");
  let prev: readonly string[] = [];
  return plans.map((p, i) => {
    const cols = fill(p.parts, p.n, buf.subarray(6 * off, 6 * (off + p.n)), scratch);
    off += p.n;
    // A chunk whose header read but whose body is corrupt: the series again, each chunk checked first.
    if (!cols) return strictTail(series[i] ?? [], lastBars);
    if (!sameDates(scratch, p.n, prev)) prev = scratch.slice(0, p.n);
    cols.date = prev;
    return cols;
  });
}

/** Whether the first `n` of `dates` are `prev`. */
function sameDates(dates: readonly string[], n: number, prev: readonly string[]): boolean {
  if (prev.length !== n) return false;
  for (let i = n - 1; i >= 0; i--) if (dates[i] !== prev[i]) return false;
  return true;
}

/** A chunk to read: a v2 chunk by its checked header (decoded in place), or a decoded v1 chunk. */
type Part = { n: number; text: string; head: V2Head; chunk?: undefined } | { n: number; chunk: Chunk };

/** The chunks (newest first) holding the last `lastBars` bars; unreadable headers and v1 rows skipped. */
function planTail(texts: readonly string[], lastBars: number): { parts: Part[]; n: number } {
  const parts: Part[] = [];
  let have = 0;
  for (let k = texts.length - 1; k >= 0 && have < lastBars; k--) {
    const text = texts[k] ?? "";
    if (text.startsWith(V2)) {
      const head = headV2(text);
      if (!head) continue;
      parts.push({ n: head.n, text, head });
      have += head.n;
    } else {
      const chunk = decodeV1(text);
      if (!chunk) continue;
      parts.push({ n: chunk.n, chunk });
      have += chunk.n;
    }
  }
  return { parts, n: Math.min(have, lastBars) };
}

/** The old, strict plan: every chunk decoded and checked before it counts (corrupt ones skipped). */
function strictTail(texts: readonly string[], lastBars: number): BarColumns {
  const parts: Part[] = [];
  let have = 0;
  for (let k = texts.length - 1; k >= 0 && have < lastBars; k--) {
    const chunk = decodeChunk(texts[k] ?? "");
    if (!chunk) continue;
    parts.push({ n: chunk.n, chunk });
    have += chunk.n;
  }
  const n = Math.min(have, lastBars);
  return fill(parts, n, new Float64Array(6 * n)) ?? emptyColumns();
}

function copyTail(dst: Float64Array, to: number, src: ArrayLike<number>, from: number, count: number): void {
  if (src instanceof Float64Array) dst.set(src.subarray(from, from + count), to);
  else for (let j = 0; j < count; j++) dst[to + j] = src[from + j] ?? 0;
}

/**
 * Fills columns of `n` bars from the parts (newest first); null when a v2 body turns out corrupt.
 * The dates go into `dates` when given (its first `n` slots; the result's `date` is then that list).
 */
function fill(parts: readonly Part[], n: number, buf: Float64Array, dates?: string[]): BarColumns | null {
  const out: BarColumns = {
    date: dates ?? new Array<string>(n),
    open: buf.subarray(0, n),
    high: buf.subarray(n, 2 * n),
    low: buf.subarray(2 * n, 3 * n),
    close: buf.subarray(3 * n, 4 * n),
    volume: buf.subarray(4 * n, 5 * n),
    amount: buf.subarray(5 * n, 6 * n),
  };
  const date = out.date as string[];
  const cols = [out.open, out.high, out.low, out.close, out.volume, out.amount];
  // Newest chunk first: each fills the slots before the previous one's.
  let end = n;
  for (const p of parts) {
    if (end <= 0) break;
    const count = Math.min(p.n, end);
    const from = p.n - count;
    const to = end - count;
    const c = p.chunk;
    if (!c) {
      if (!readV2(p.text, p.head, from, date, cols, to)) return null;
      end = to;
      continue;
    }
    for (let j = 0; j < count; j++) date[to + j] = c.date[from + j] ?? "";
    copyTail(out.open, to, c.open, from, count);
    copyTail(out.high, to, c.high, from, count);
    copyTail(out.low, to, c.low, from, count);
    copyTail(out.close, to, c.close, from, count);
    copyTail(out.volume, to, c.volume, from, count);
    const a = c.amount;
    if (a instanceof Float64Array) out.amount.set(a.subarray(from, from + count), to);
    else for (let j = 0; j < count; j++) out.amount[to + j] = a?.[from + j] ?? Number.NaN;
    end = to;
  }
  return out;
}
