/**
 * Redaction for traces (seed 000 §9): values under keys that name credentials — api_key, token,
 * password, secret, authorization, cookie — are replaced at any depth before anything is written.
 */

const SENSITIVE = /api[-_]?key|token|password|passwd|secret|authorization|cookie/i;

/** A deep copy of `value` with sensitive keys' values replaced by "[redacted]". */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return "[too deep]";
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE.test(k) ? "[redacted]" : redactSecrets(v, depth + 1);
    return out;
  }
  return value;
}
