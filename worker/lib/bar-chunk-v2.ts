/**
 * The v2 encoding of a bar chunk (written now; format in bar-chunks.ts): decimal-scaled integer
 * columns, delta- and zig-zag-coded in a printable base-32 varint, dates as day-of-year deltas; the
 * header check, the in-place decode into shared column buffers, and the exact encoder.
 */
import type { Bar } from "../contracts/analysis";
import type { Chunk } from "./bar-chunk-v1";

export const V2 = "@2|";
/**
 * Varint digits, little end first: a terminal digit d is the character 48 + d ('0'…'O'), a
 * continuation digit is `CONT_CHARS[d]` ('P'…'[' and ']'…'p': no backslash, quote or `|`, so the
 * text needs no escaping in JSON or SQL transports).
 */
const TERM = 48;
const CONT_CHARS = Array.from({ length: 32 }, (_, d) => String.fromCharCode(d < 12 ? 80 + d : 81 + d));
/** Character code → terminal digit (0–31), continuation digit + 32 (32–63), or -1. */
const DIGIT = new Int8Array(128).fill(-1);
for (let d = 0; d < 32; d++) {
  DIGIT[TERM + d] = d;
  DIGIT[(CONT_CHARS[d] ?? "").charCodeAt(0)] = 32 + d;
}
const NULL_MARK = 33; // '!'
const BAR = 124; // '|'
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
/** Largest scaled magnitude (zig-zag deltas of two such stay under 2^53). */
const MAX_SCALED = 2 ** 50;

const DAY_MS = 86_400_000;
const yearDates = new Map<number, string[]>();

/** "YYYY-MM-DD" of every day of `year` by day-of-year (shared strings: decoded dates allocate nothing). */
function datesOfYear(year: number): string[] {
  let out = yearDates.get(year);
  if (!out) {
    out = [];
    const t0 = Date.UTC(year, 0, 1);
    for (let k = 0; k < 366; k++) {
      const iso = new Date(t0 + k * DAY_MS).toISOString().slice(0, 10);
      if (!iso.startsWith(String(year))) break;
      out.push(iso);
    }
    yearDates.set(year, out);
  }
  return out;
}

function pushVarint(out: string[], z: number): void {
  let s = "";
  while (z >= 32) {
    s += CONT_CHARS[z % 32] ?? "";
    z = Math.floor(z / 32);
  }
  out.push(s + String.fromCharCode(TERM + z));
}

// ---- the column codec (dates and numeric columns alike) ----
// A column is a run of varint-coded deltas of integers: unsigned for the dates (day-of-year steps),
// zig-zag signed for the numeric columns (decimal-scaled values); `!` marks a missing amount.

/** Encodes integers (NaN = missing) as varint deltas; `signed` zig-zags each delta. */
function encodeDeltas(ints: readonly number[], signed: boolean): string {
  const parts: string[] = [];
  let prev = 0;
  for (const m of ints) {
    if (Number.isNaN(m)) {
      parts.push("!");
      continue;
    }
    const d = m - prev;
    prev = m;
    pushVarint(parts, !signed ? d : d >= 0 ? 2 * d : -2 * d - 1);
  }
  return parts.join("");
}

/** The last value `readDeltas` / `readRaw` decoded (written or skipped): the chunk's last close check. */
let lastRead = Number.NaN;

/**
 * Reads `n` varint deltas starting at `pos`, undoes them (and the zig-zag when `signed`) and writes
 * value / `f` of entries `skip`… to `out[at]`… (the first `skip` are decoded, not written: deltas
 * run from the start). Returns the position after them, or -1 when the text is malformed there.
 */
function readDeltas(
  text: string,
  pos: number,
  n: number,
  signed: boolean,
  f: number,
  nullable: boolean,
  out: Float64Array,
  at: number,
  skip: number,
): number {
  let prev = 0;
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(pos++);
    if (c === NULL_MARK && nullable) {
      if (i >= skip) out[at + i - skip] = Number.NaN;
      continue;
    }
    let dg = c < 128 ? (DIGIT[c] ?? -1) : -1;
    if (dg < 0) return -1;
    // Six digits (30 bits) add up in int32 (`lo`), any further ones in a double (`hi`); the zig-zag
    // sign is the parity of the lowest bits (no float modulo of a value past 2^31).
    let lo = dg & 31;
    let hi = 0;
    if (dg >= 32) {
      let shift = 5;
      do {
        c = text.charCodeAt(pos++);
        dg = c < 128 ? (DIGIT[c] ?? -1) : -1;
        if (dg < 0) return -1;
        if (shift < 30) lo |= (dg & 31) << shift;
        else hi += (dg & 31) * 2 ** shift;
        shift += 5;
      } while (dg >= 32);
    }
    if (!signed) prev += lo + hi;
    else {
      // Zig-zag without a branch on the sign (it is a coin toss from value to value): z/2 when even,
      // -(z+1)/2 when odd; every step exact in doubles.
      const odd = lo & 1;
      prev += (lo + hi + odd) * 0.5 * (1 - 2 * odd);
    }
    if (i >= skip) out[at + i - skip] = f === 1 ? prev : prev / f;
  }
  lastRead = f === 1 ? prev : prev / f;
  return pos;
}

/** The smallest decimal scale at which every value survives exactly, or -1. */
function scaleOf(values: readonly number[]): number {
  outer: for (let k = 0; k < POW10.length; k++) {
    const f = POW10[k] ?? 1;
    for (const v of values) {
      if (Number.isNaN(v)) continue; // a missing amount
      if (Object.is(v, -0)) return -1;
      const m = Math.round(v * f);
      if (!(Math.abs(m) <= MAX_SCALED) || m / f !== v) continue outer;
    }
    return k;
  }
  return -1;
}

/** One column: its scale character and body (NaN = missing, only in the amount column). */
function encodeColumn(values: readonly number[]): [string, string] {
  const k = scaleOf(values);
  if (k < 0) return ["r", values.map((v) => (Number.isNaN(v) ? "!" : String(v))).join(",")];
  const f = POW10[k] ?? 1;
  return [
    String(k),
    encodeDeltas(
      values.map((v) => (Number.isNaN(v) ? v : Math.round(v * f))),
      true,
    ),
  ];
}

export function encodeV2(year: number, list: readonly Bar[]): string | null {
  const table = datesOfYear(year);
  const days: number[] = [];
  let prevDay = 0;
  const t0 = Date.UTC(year, 0, 1);
  for (const b of list) {
    const day = Math.round((Date.parse(`${b.date}T00:00:00Z`) - t0) / DAY_MS);
    if (!(day >= prevDay) || table[day] !== b.date) return null;
    days.push(day);
    prevDay = day;
  }
  const cols: [string, string][] = [
    encodeColumn(list.map((b) => b.open)),
    encodeColumn(list.map((b) => b.high)),
    encodeColumn(list.map((b) => b.low)),
    encodeColumn(list.map((b) => b.close)),
    encodeColumn(list.map((b) => b.volume)),
  ];
  const hasAmount = list.some((b) => b.amount !== undefined);
  const amount = hasAmount
    ? encodeColumn(list.map((b) => (b.amount !== undefined && Number.isFinite(b.amount) ? b.amount : Number.NaN)))
    : (["-", ""] as [string, string]);
  cols.push(amount);
  const last = list[list.length - 1];
  if (!last) return null;
  const body = [cols.map((c) => c[0]).join(""), encodeDeltas(days, false), ...cols.map((c) => c[1])].join("|");
  return `@2|${String(last.close)}|${list.length}|${year}|${body.length}|${body}`;
}

/** A column kept as decimal text: entries `skip`… to `out[at]`…; the position of the `|` (or end) after, or -1. */
function readRaw(
  text: string,
  pos: number,
  n: number,
  nullable: boolean,
  out: Float64Array,
  at: number,
  skip: number,
): number {
  let end = text.indexOf("|", pos);
  if (end < 0) end = text.length;
  const parts = text.slice(pos, end).split(",");
  if (parts.length !== n) return -1;
  for (let i = 0; i < n; i++) {
    const p = parts[i] ?? "";
    let v: number;
    if (p === "!" && nullable) v = Number.NaN;
    else {
      v = p === "" ? Number.NaN : Number(p);
      if (!Number.isFinite(v)) return -1;
    }
    if (i >= skip) out[at + i - skip] = v;
    lastRead = v;
  }
  return end;
}

/** A v2 chunk's header, checked (a truncated or extended row fails the length). */
export interface V2Head {
  n: number;
  year: number;
  scales: string;
  /** The header's last close (JSON number text). */
  lastClose: string;
  /** Where the dates column starts. */
  body: number;
}

export function headV2(text: string): V2Head | null {
  // Header: @2|lastClose|n|year|bodyLength|scales|…
  const p1 = text.indexOf("|", 3);
  const p2 = text.indexOf("|", p1 + 1);
  const p3 = text.indexOf("|", p2 + 1);
  const p3b = text.indexOf("|", p3 + 1);
  const p4 = text.indexOf("|", p3b + 1);
  if (p1 < 0 || p2 < 0 || p3 < 0 || p3b < 0 || p4 < 0) return null;
  const n = Number(text.slice(p1 + 1, p2));
  const year = Number(text.slice(p2 + 1, p3));
  const bodyLength = Number(text.slice(p3 + 1, p3b));
  const scales = text.slice(p3b + 1, p4);
  if (!Number.isSafeInteger(n) || n < 0 || !Number.isSafeInteger(year) || scales.length !== 6) return null;
  if (text.length - p3b - 1 !== bodyLength || n > bodyLength) return null;
  return { n, year, scales, lastClose: text.slice(3, p1), body: p4 + 1 };
}

/** Scratch for a chunk's day numbers (a year has at most 366 distinct days; grown on demand). */
let dayScratch = new Float64Array(400);

/**
 * Decodes a v2 chunk's bars `skip`… into `date[at]`… and `cols[k][at]`… (open, high, low, close,
 * volume, amount: NaN where missing). False when the chunk is corrupt (the slots are then garbage).
 */
export function readV2(
  text: string,
  h: V2Head,
  skip: number,
  date: string[],
  cols: readonly Float64Array[],
  at: number,
): boolean {
  const { n, scales } = h;
  const table = datesOfYear(h.year);
  if (dayScratch.length < n) dayScratch = new Float64Array(n);
  const days = dayScratch;
  let pos = readDeltas(text, h.body, n, false, 1, false, days, 0, 0);
  if (pos < 0 || text.charCodeAt(pos) !== BAR) return false;
  for (let i = 0; i < n; i++) {
    const d = table[days[i] ?? -1];
    if (d === undefined) return false;
    if (i >= skip) date[at + i - skip] = d;
  }
  let lastClose = Number.NaN;
  lastRead = Number.NaN;
  for (let k = 0; k < 6; k++) {
    const s = scales.charCodeAt(k);
    const out = cols[k] as Float64Array;
    if (pos >= text.length || text.charCodeAt(pos) !== BAR) return false;
    pos++;
    const nullable = k === 5;
    if (s === 45 /* - */ && nullable) {
      if (n > skip) out.fill(Number.NaN, at, at + n - skip);
      if (pos !== text.length && text.charCodeAt(pos) !== BAR) return false;
      continue;
    }
    if (s === 114 /* r */) pos = readRaw(text, pos, n, nullable, out, at, skip);
    else if (s >= 48 && s <= 57) {
      pos = readDeltas(text, pos, n, true, POW10[s - 48] ?? 1, nullable, out, at, skip);
      if (pos >= 0 && pos !== text.length && text.charCodeAt(pos) !== BAR) return false;
    } else return false;
    if (pos < 0) return false;
    if (k === 3) lastClose = lastRead;
  }
  // The header's last close must be the body's (SQL reads the header alone).
  return pos === text.length && (n === 0 || Number(h.lastClose) === lastClose);
}

export function decodeV2(text: string): Chunk | null {
  const h = headV2(text);
  if (!h) return null;
  const { n } = h;
  const date = new Array<string>(n);
  const buf = new Float64Array(6 * n);
  const cols = [0, 1, 2, 3, 4, 5].map((k) => buf.subarray(k * n, (k + 1) * n));
  if (!readV2(text, h, 0, date, cols, 0)) return null;
  const [open, high, low, close, volume, amount] = cols as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  return { n, date, open, high, low, close, volume, amount };
}
