/**
 * Spilled tool results: a result over 50,000 characters reaches the page as a reference with a
 * preview and a structural index (`{ spilled: true, ref, chars, preview, index }`); the whole result
 * is fetched on demand from `GET /api/sessions/:id/spills/:turnId/:callId`. Pure.
 */

/** A spill reference as a tool output carries it. */
export interface SpillRef {
  ref: string;
  chars: number;
  preview: string;
  keys: string[];
  arrays: Record<string, number>;
  note: string | null;
}

/** Where a spill lives: the parts of `spills/<session>/<turn>/<encoded callId>.json`. */
export interface SpillLocation {
  sessionId: string;
  turnId: string;
  callId: string;
}

function rec(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The spill reference in a tool output, or null when the output is the result itself. */
export function spillOf(output: unknown): SpillRef | null {
  const o = rec(output);
  if (!o || o.spilled !== true || typeof o.ref !== "string") return null;
  const index = rec(o.index) ?? {};
  const arrays: Record<string, number> = {};
  for (const [k, v] of Object.entries(rec(index.arrays) ?? {})) if (typeof v === "number") arrays[k] = v;
  return {
    ref: o.ref,
    chars: typeof o.chars === "number" ? o.chars : 0,
    preview: typeof o.preview === "string" ? o.preview : "",
    keys: Array.isArray(index.keys) ? index.keys.filter((k): k is string => typeof k === "string") : [],
    arrays,
    note: typeof o.note === "string" ? o.note : null,
  };
}

/** Reads a spill key into its session, turn and (decoded) call id; null when it is not one. */
export function spillLocation(ref: string): SpillLocation | null {
  const m = ref.match(/^spills\/([^/]+)\/([^/]+)\/([^/]+)\.json$/);
  if (!m?.[1] || !m[2] || !m[3]) return null;
  try {
    return { sessionId: m[1], turnId: m[2], callId: decodeURIComponent(m[3]) };
  } catch {
    return null;
  }
}
