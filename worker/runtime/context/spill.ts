/**
 * Spills: a tool result over 50,000 characters goes to
 * the spill store; the model and the UI get a reference, a 2,000-character preview and a structural
 * index (top-level keys, array lengths). Nothing near a 2 MB DO row is ever produced.
 */
import type { SpillStore } from "../../ports/spill-store";

/** Results longer than this are spilled (characters). */
export const SPILL_THRESHOLD = 50_000;
/** Preview kept in context (characters). */
export const PREVIEW_CHARS = 2_000;

/** The reference that replaces a spilled result. */
export interface SpillRef {
  spilled: true;
  ref: string;
  chars: number;
  preview: string;
  index: { keys: string[]; arrays: Record<string, number> };
  note: string;
}

/** The key of a call's spilled result. */
export function spillKey(sessionId: string, turnId: string, toolCallId: string): string {
  return `spills/${sessionId}/${turnId}/${encodeURIComponent(toolCallId)}.json`;
}

function indexOf(value: unknown): SpillRef["index"] {
  if (typeof value !== "object" || value === null) return { keys: [], arrays: {} };
  if (Array.isArray(value)) return { keys: [], arrays: { "(root)": value.length } };
  const arrays: Record<string, number> = {};
  for (const [k, v] of Object.entries(value)) if (Array.isArray(v)) arrays[k] = v.length;
  return { keys: Object.keys(value).slice(0, 50), arrays };
}

/** Spills `output` when its JSON passes the threshold; returns what goes into context instead. */
export async function spillIfLarge(output: unknown, key: string, store: SpillStore | undefined): Promise<unknown> {
  const text = JSON.stringify(output) ?? "null";
  if (text.length <= SPILL_THRESHOLD) return output;
  const ref: SpillRef = {
    spilled: true,
    ref: key,
    chars: text.length,
    preview: text.slice(0, PREVIEW_CHARS),
    index: indexOf(output),
    note: `The full result (${text.length} characters) is stored; this is a preview and an index. Ask for a narrower query if you need more.`,
  };
  if (!store) return { ...ref, note: `${ref.note} (not stored: no spill store; only the preview survives)` };
  try {
    await store.put(key, text);
    return ref;
  } catch (error) {
    return {
      ...ref,
      note: `${ref.note} (storing failed: ${error instanceof Error ? error.message : String(error)}; only the preview survives)`,
    };
  }
}
