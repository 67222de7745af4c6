/**
 * The v1 encoding of a bar chunk (rows written before v2; bar-chunks.ts): columnar JSON
 * `{"d":[dates],"o":[…],"h":[…],"l":[…],"c":[…],"v":[…],"a":[…]?}`, checked by hand on read (this runs
 * for every cached year of every symbol), and the decoded chunk both encodings read into.
 */
import type { Bar } from "../contracts/analysis";

/** A decoded chunk: its dates and six columns (amount NaN where missing). */
export interface Chunk {
  n: number;
  date: readonly string[];
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  volume: ArrayLike<number>;
  /** NaN (v2) or null/absent (v1) where a bar has no amount. */
  amount: ArrayLike<number | null> | undefined;
}

interface JsonChunk {
  d: string[];
  o: number[];
  h: number[];
  l: number[];
  c: number[];
  v: number[];
  a?: (number | null)[];
}

// ---- v1 (JSON) ----

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
function isJsonChunk(x: unknown): x is JsonChunk {
  if (typeof x !== "object" || x === null) return false;
  const c = x as Record<string, unknown>;
  const d = c.d;
  if (!isDates(d)) return false;
  const n = d.length;
  if (!isNumbers(c.o, n) || !isNumbers(c.h, n) || !isNumbers(c.l, n) || !isNumbers(c.c, n) || !isNumbers(c.v, n))
    return false;
  return isAmounts(c.a, n);
}

export function decodeV1(text: string): Chunk | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isJsonChunk(json)) return null;
  return {
    n: json.d.length,
    date: json.d,
    open: json.o,
    high: json.h,
    low: json.l,
    close: json.c,
    volume: json.v,
    amount: json.a,
  };
}

export function encodeV1(list: readonly Bar[]): string {
  const hasAmount = list.some((b) => b.amount !== undefined);
  return JSON.stringify({
    d: list.map((b) => b.date),
    o: list.map((b) => b.open),
    h: list.map((b) => b.high),
    l: list.map((b) => b.low),
    c: list.map((b) => b.close),
    v: list.map((b) => b.volume),
    ...(hasAmount ? { a: list.map((b) => b.amount ?? null) } : {}),
  });
}
