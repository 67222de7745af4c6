/**
 * Canonical JSON for the audit trail: object keys sorted by UTF-16 code units, no whitespace, numbers
 * and strings exactly as `JSON.stringify` writes them, `undefined` and function members dropped (as
 * JSON does; `undefined` in an array becomes `null`), `toJSON` honoured, non-finite numbers refused.
 * Two parties holding the same value get the same bytes, so anyone can recompute an entry's hash.
 * Self-contained on purpose: `scripts/audit-verify.mjs` imports this file and nothing else.
 */

/** Appends the canonical text of `value` to `out`. */
function write(value: unknown, out: string[]): void {
  if (value === null) {
    out.push("null");
    return;
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      out.push(JSON.stringify(value));
      return;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      out.push(String(value));
      return;
    case "object":
      break;
    default:
      throw new TypeError(`canonicalJson: cannot encode a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      const item: unknown = value[i];
      if (item === undefined || typeof item === "function") out.push("null");
      else write(item, out);
    }
    out.push("]");
    return;
  }
  const record = value as Record<string, unknown>;
  const toJSON = (record as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    write((toJSON as () => unknown).call(record), out);
    return;
  }
  const keys = Object.keys(record).sort();
  out.push("{");
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === "function") continue;
    if (!first) out.push(",");
    first = false;
    out.push(JSON.stringify(key), ":");
    write(member, out);
  }
  out.push("}");
}

/** Thrown by the fast path's replacer when an object has array-index keys (see below). */
const SLOW = new Error("canonicalJson: slow path");
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

/**
 * The native serializer with keys put in order. Objects whose keys are already sorted pass through
 * untouched; others are rebuilt in sorted order. JS objects list array-index keys ("0", "10", "9")
 * first in numeric order whatever their insertion order, so an object with such a key cannot be
 * rebuilt in code-unit order: that case takes the explicit writer.
 */
function sortedReplacer(this: unknown, _key: string, v: unknown): unknown {
  if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError(`canonicalJson: non-finite number ${v}`);
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  if (keys.length < 2) return v;
  if (INDEX_KEY.test(keys[0] ?? "")) throw SLOW;
  let sorted = true;
  for (let i = 1; i < keys.length; i++)
    if ((keys[i - 1] ?? "") > (keys[i] ?? "")) {
      sorted = false;
      break;
    }
  if (sorted) return v;
  const record = v as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const k of keys.sort()) copy[k] = record[k];
  return copy;
}

/** The canonical JSON text of `value`; throws on values JSON cannot represent faithfully. */
export function canonicalJson(value: unknown): string {
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function" || value === undefined)
    throw new TypeError(`canonicalJson: cannot encode a ${typeof value}`);
  try {
    return JSON.stringify(value, sortedReplacer);
  } catch (error) {
    if (error !== SLOW) throw error;
    const out: string[] = [];
    write(value, out);
    return out.join("");
  }
}
