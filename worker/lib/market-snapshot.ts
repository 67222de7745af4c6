/**
 * The whole-market columnar snapshot: every stored series of one market in one binary object, so a
 * whole-market reader (the screening funnel, the regime's breadth) moves a few MB in one read and
 * decodes typed arrays — no chunk text, no per-bar objects. It is a copy: the per-symbol chunks
 * (`bar-chunks.ts`) stay the store, and the snapshot is rebuilt from them.
 *
 * Layout (little-endian): `WSN1`, the header's byte length (u32), the header (UTF-8 JSON), zero
 * padding to 8 bytes, then per series seven column segments in order — calendar index (dates), open,
 * high, low, close, volume, amount — each padded to 8 bytes. The header names the market, as-of
 * date, sync run and store generation it reflects, the shared date calendar, and per series its id,
 * bar count, its `market_series` meta and one code per column: `kind * 16 + scale`, where kind is
 * 0/1/2 (Int8/Int16/Int32 deltas of the decimal-scaled integers), 3 (Float64 deltas of them) or
 * 4 (raw Float64: NaN, -0 or values no scale keeps exact). A column is scaled only when every value
 * comes back bit for bit (`m / 10^k`, as v2 chunks decode), so decoded series equal the chunks'.
 */
import type { Adjustment, SourceName } from "../contracts/market";
import type { BarColumns } from "../engine/series";

/** What a snapshot reflects. */
export interface SnapshotMeta {
  market: string;
  /** The newest bar date in the snapshot ("" when empty). */
  asOf: string;
  /** The sync run it was written for (null when rebuilt outside a run). */
  runId: string | null;
  /** The store generation it was read at (a reader compares it with the store's). */
  generation: number;
}

/** One series as the snapshot holds it. */
export interface SnapshotSeries {
  symbolId: string;
  adjust: Adjustment;
  origin: SourceName;
  fetchedAt: number;
  simulated: boolean;
  columns: BarColumns;
}

interface Header extends SnapshotMeta {
  v: 1;
  calendar: string[];
  ids: string[];
  n: number[];
  /** Per series: [adjust, origin, fetchedAt, simulated 0/1]. */
  meta: [Adjustment, SourceName, number, number][];
  /** Seven column codes per series. */
  k: number[];
}

const MAGIC = [0x57, 0x53, 0x4e, 0x31]; // "WSN1"
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
const MAX_SCALED = 2 ** 50;
const WIDTH = [1, 2, 4, 8, 8];
const RAW = 4;

const pad8 = (x: number): number => (x + 7) & ~7;

/** JSON text as ASCII bytes (anything beyond ASCII written as a `\\u` escape; the core has no TextEncoder). */
function asciiBytes(json: string): Uint8Array {
  const text = json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function asciiText(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** The column code for `values` (see the layout) and its integers when scaled. */
function planColumn(values: ArrayLike<number>): { code: number; ints: Float64Array | null } {
  const n = values.length;
  outer: for (let k = 0; k < POW10.length; k++) {
    const f = POW10[k] ?? 1;
    const ints = new Float64Array(n);
    let maxDelta = 0;
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i] ?? Number.NaN;
      if (!Number.isFinite(v) || Object.is(v, -0)) break outer;
      const m = Math.round(v * f);
      if (!(Math.abs(m) <= MAX_SCALED) || m / f !== v) continue outer;
      ints[i] = m;
      const d = Math.abs(m - prev);
      if (d > maxDelta) maxDelta = d;
      prev = m;
    }
    const kind = maxDelta < 2 ** 7 ? 0 : maxDelta < 2 ** 15 ? 1 : maxDelta < 2 ** 31 ? 2 : 3;
    return { code: kind * 16 + k, ints };
  }
  return { code: RAW * 16, ints: null };
}

function writeColumn(view: DataView, at: number, code: number, ints: Float64Array | null, values: ArrayLike<number>) {
  const kind = code >> 4;
  const n = values.length;
  if (kind === RAW || !ints) {
    for (let i = 0; i < n; i++) view.setFloat64(at + 8 * i, values[i] ?? Number.NaN, true);
    return;
  }
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const m = ints[i] ?? 0;
    const d = m - prev;
    prev = m;
    if (kind === 0) view.setInt8(at + i, d);
    else if (kind === 1) view.setInt16(at + 2 * i, d, true);
    else if (kind === 2) view.setInt32(at + 4 * i, d, true);
    else view.setFloat64(at + 8 * i, d, true);
  }
}

/** Encodes series (each ascending, dates ISO days) into one snapshot. Deterministic: same input, same bytes. */
export function encodeMarketSnapshot(meta: SnapshotMeta, series: readonly SnapshotSeries[]): Uint8Array {
  const days = new Set<string>();
  for (const s of series) for (const d of s.columns.date) days.add(d);
  const calendar = [...days].sort();
  const dayIndex = new Map(calendar.map((d, i) => [d, i]));
  const plans = series.map((s) => {
    const c = s.columns;
    const idx = Float64Array.from(c.date, (d) => dayIndex.get(d) ?? 0);
    return [idx, c.open, c.high, c.low, c.close, c.volume, c.amount].map((values) => ({
      values,
      ...planColumn(values),
    }));
  });
  const header: Header = {
    v: 1,
    ...meta,
    calendar,
    ids: series.map((s) => s.symbolId),
    n: series.map((s) => s.columns.close.length),
    meta: series.map((s) => [s.adjust, s.origin, s.fetchedAt, s.simulated ? 1 : 0]),
    k: plans.flatMap((p) => p.map((c) => c.code)),
  };
  const head = asciiBytes(JSON.stringify(header));
  let size = pad8(8 + head.length);
  for (const p of plans) for (const c of p) size += pad8(c.values.length * (WIDTH[c.code >> 4] ?? 8));
  const out = new Uint8Array(size);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, head.length, true);
  out.set(head, 8);
  let at = pad8(8 + head.length);
  for (const p of plans)
    for (const c of p) {
      writeColumn(view, at, c.code, c.ints, c.values);
      at += pad8(c.values.length * (WIDTH[c.code >> 4] ?? 8));
    }
  return out;
}

/** Scratch for columns read with a skip (grown as needed; only used within one `readColumn`). */
let scratch = new Float64Array(0);

/**
 * Undoes a column's deltas and scale into `out` (entries `skip`… only). The stored width is widened
 * to Float64 in one native copy first, so the prefix sum runs on one array type (a loop over four
 * element types is a polymorphic load per entry).
 */
function readColumn(bytes: Uint8Array, at: number, code: number, n: number, skip: number, out: Float64Array): void {
  const kind = code >> 4;
  const f = POW10[code & 15] ?? 1;
  const src =
    kind === 0
      ? new Int8Array(bytes.buffer, bytes.byteOffset + at, n)
      : kind === 1
        ? new Int16Array(bytes.buffer, bytes.byteOffset + at, n)
        : kind === 2
          ? new Int32Array(bytes.buffer, bytes.byteOffset + at, n)
          : new Float64Array(bytes.buffer, bytes.byteOffset + at, n);
  if (kind === RAW) {
    out.set(src.subarray(skip), 0);
    return;
  }
  if (skip > 0 && scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  const t = skip > 0 ? scratch : out;
  t.set(src, 0);
  let prev = 0;
  if (f === 1)
    for (let i = 0; i < n; i++) {
      prev += t[i] as number;
      t[i] = prev;
    }
  else
    for (let i = 0; i < n; i++) {
      prev += t[i] as number;
      t[i] = prev / f;
    }
  if (skip > 0) out.set(t.subarray(skip, n), 0);
}

/** A parsed snapshot: the header read, columns decoded on demand (no copy of the body). */
export class MarketSnapshot {
  readonly meta: SnapshotMeta;
  readonly #bytes: Uint8Array;
  readonly #h: Header;
  readonly #pos = new Map<string, { i: number; at: number }>();

  private constructor(bytes: Uint8Array, h: Header, body: number) {
    this.#bytes = bytes;
    this.#h = h;
    this.meta = { market: h.market, asOf: h.asOf, runId: h.runId, generation: h.generation };
    let at = body;
    for (let i = 0; i < h.ids.length; i++) {
      this.#pos.set(h.ids[i] ?? "", { i, at });
      const n = h.n[i] ?? 0;
      for (let c = 0; c < 7; c++) at += pad8(n * (WIDTH[(h.k[7 * i + c] ?? 0) >> 4] ?? 8));
    }
  }

  /** Parses a snapshot (the buffer must be 8-byte aligned, as a fresh ArrayBuffer is); null when it is not one. */
  static parse(bytes: Uint8Array): MarketSnapshot | null {
    if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b) || bytes.byteOffset % 8 !== 0) return null;
    const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
    if (8 + len > bytes.length) return null;
    let h: Header;
    try {
      h = JSON.parse(asciiText(bytes.subarray(8, 8 + len))) as Header;
    } catch {
      return null;
    }
    if (h.v !== 1 || !Array.isArray(h.ids) || h.n.length !== h.ids.length || h.k.length !== 7 * h.ids.length)
      return null;
    const snap = new MarketSnapshot(bytes, h, pad8(8 + len));
    // The last series must end inside the body (a truncated object is not a snapshot).
    let end = pad8(8 + len);
    for (let i = 0; i < h.ids.length; i++)
      for (let c = 0; c < 7; c++) end += pad8((h.n[i] ?? 0) * (WIDTH[(h.k[7 * i + c] ?? 0) >> 4] ?? 8));
    return end === bytes.length ? snap : null;
  }

  /** The symbols it holds, in stored order. */
  get ids(): readonly string[] {
    return this.#h.ids;
  }

  has(symbolId: string): boolean {
    return this.#pos.has(symbolId);
  }

  /** Bars of series `i`. */
  count(symbolId: string): number {
    const p = this.#pos.get(symbolId);
    return p ? (this.#h.n[p.i] ?? 0) : 0;
  }

  /**
   * Many series' last `lastBars` bars as columns, all in one shared buffer (one allocation); ids it
   * does not hold are omitted.
   */
  columnsMany(symbolIds: readonly string[], lastBars = Number.POSITIVE_INFINITY): SnapshotSeries[] {
    const found = symbolIds.map((id) => this.#pos.get(id)).filter((p) => p !== undefined);
    let total = 0;
    for (const p of found) total += Math.min(this.#h.n[p.i] ?? 0, lastBars);
    const buf = new Float64Array(6 * total);
    const cal = this.#h.calendar;
    let off = 0;
    const idx = new Float64Array(found.reduce((m, p) => Math.max(m, this.#h.n[p.i] ?? 0), 0));
    return found.map(({ i, at: start }) => {
      const n = this.#h.n[i] ?? 0;
      const keep = Math.min(n, lastBars);
      const skip = n - keep;
      const cols = [0, 1, 2, 3, 4, 5].map((c) => buf.subarray(6 * off + c * keep, 6 * off + (c + 1) * keep));
      off += keep;
      let at = start;
      const date = new Array<string>(keep);
      for (let c = 0; c < 7; c++) {
        const code = this.#h.k[7 * i + c] ?? 0;
        if (c === 0) {
          readColumn(this.#bytes, at, code, n, skip, idx);
          for (let j = 0; j < keep; j++) date[j] = cal[idx[j] ?? 0] ?? "";
        } else readColumn(this.#bytes, at, code, n, skip, cols[c - 1] as Float64Array);
        at += pad8(n * (WIDTH[code >> 4] ?? 8));
      }
      const [open, high, low, close, volume, amount] = cols as [
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
      ];
      const [adjust, origin, fetchedAt, simulated] = this.#h.meta[i] ?? ["qfq", "eastmoney", 0, 0];
      return {
        symbolId: this.#h.ids[i] ?? "",
        adjust,
        origin,
        fetchedAt,
        simulated: simulated === 1,
        columns: { date, open, high, low, close, volume, amount },
      };
    });
  }
}
