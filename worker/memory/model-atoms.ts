/**
 * Parsing what the model's memory passes answer (PARITY.md §2.3): prefixed lines, `[偏好]`/`[决策]`
 * for L1 atoms, `[场景]` (L2 scenario) and `[画像]` (L3 persona) for the layers. Unknown prefixes,
 * refused content (never-store rules) and overlong lines are dropped.
 */
import type { MemoryType } from "../contracts/memory";
import { refusalOf } from "./never-store";

/** Longest atom the model may propose (characters). */
export const MAX_ATOM_CHARS = 300;
/** L1 atoms needed before the L2/L3 layers are refreshed (at least 3). */
export const LAYER_REFRESH_MIN_ATOMS = 3;
/** Most scenario and persona lines one refresh adds (3 of each). */
export const MAX_LAYER_LINES = 3;

const PREFIX: Readonly<Record<string, MemoryType>> = {
  偏好: "preference",
  preference: "preference",
  决策: "decision",
  decision: "decision",
  场景: "scenario",
  scenario: "scenario",
  画像: "persona",
  persona: "persona",
};

/** One parsed line. */
export interface ModelAtom {
  type: MemoryType;
  content: string;
}

/** The atoms of a model answer whose type is in `allowed`, at most `perType` of each. */
export function parseModelAtoms(text: string, allowed: readonly MemoryType[], perType = 10): ModelAtom[] {
  const out: ModelAtom[] = [];
  for (const raw of text.split("\n")) {
    const m = /^\s*(?:[-*]\s*)?[[【]\s*([^\]】]+?)\s*[\]】]\s*(.+)$/.exec(raw);
    const type = m?.[1] ? PREFIX[m[1].toLowerCase()] : undefined;
    const content = m?.[2]?.trim() ?? "";
    if (!type || !allowed.includes(type) || content.length < 4 || content.length > MAX_ATOM_CHARS) continue;
    if (refusalOf(content) !== null) continue;
    if (out.filter((a) => a.type === type).length >= perType) continue;
    if (!out.some((a) => a.type === type && a.content === content)) out.push({ type, content });
  }
  return out;
}
