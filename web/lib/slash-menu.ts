/**
 * The composer's skill menu: typing `/` at the start of the message lists skills; the word after the
 * slash filters them; completing puts `/name ` in place of the typed word. Pure.
 */

/** A skill as the menu lists it. */
export interface SkillItem {
  name: string;
  description: string;
  builtin: boolean;
}

/** The word being typed after a leading `/` (the text before the caret), or null when no menu applies. */
export function slashQuery(text: string, caret: number): string | null {
  const m = text.slice(0, caret).match(/^\/([a-z0-9-]*)$/i);
  return m ? (m[1] ?? "").toLowerCase() : null;
}

/** Skills matching the typed word: names starting with it first, then names or descriptions containing it. */
export function matchSkills<S extends SkillItem>(skills: readonly S[], query: string): S[] {
  const q = query.toLowerCase();
  const starts = skills.filter((s) => s.name.startsWith(q));
  const contains = skills.filter(
    (s) => !s.name.startsWith(q) && (s.name.includes(q) || s.description.toLowerCase().includes(q)),
  );
  return [...starts, ...contains];
}

/** The text with its leading `/word` replaced by `/name ` (the rest of the message kept). */
export function completeSkill(text: string, name: string): string {
  const rest = text.replace(/^\/[a-z0-9-]*/i, "").replace(/^ /, "");
  return `/${name} ${rest}`;
}

/** The next highlighted row when moving by `delta` through `count` rows (wrapping). */
export function moveActive(active: number, delta: number, count: number): number {
  if (count === 0) return 0;
  return (((active + delta) % count) + count) % count;
}
