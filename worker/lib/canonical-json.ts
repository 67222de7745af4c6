/**
 * Canonical JSON for the audit trail: object keys sorted by UTF-16 code units, no whitespace, numbers
 * and strings exactly as `JSON.stringify` writes them, `undefined` members dropped (as JSON does),
 * non-finite numbers refused. Two parties holding the same value get the same bytes, so anyone can
 * recompute an entry's hash. Self-contained on purpose: `scripts/audit-verify.mjs` imports this file
 * and nothing else from the project.
 */

/** The canonical JSON text of `value`; throws on values JSON cannot represent faithfully. */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
      const record = value as Record<string, unknown>;
      const toJSON = (record as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") return canonicalJson((toJSON as () => unknown).call(record));
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined && typeof record[k] !== "function")
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot encode a ${typeof value}`);
  }
}
