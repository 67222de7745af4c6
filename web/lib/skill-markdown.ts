/**
 * The markdown a skill is edited as (`name` / `description` front matter, then the instructions with a
 * `{user_input}` slot), and the keyword list of a scenario hint as typed in one field. Pure.
 */

/** The starting text of a new skill. */
export const SKILL_TEMPLATE = `---
name: my-skill
description: What this skill does, in one line
---
Steps for the agent to follow for: {user_input}
`;

/** A skill back as editable markdown. */
export function skillMarkdown(skill: { name: string; description: string; body: string }): string {
  return `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${skill.body}\n`;
}

/** The name in a skill's front matter, if the text has one. */
export function skillNameOf(markdown: string): string | null {
  const m = markdown.replace(/\r\n/g, "\n").match(/^---\n(?:.*\n)*?name:\s*["']?([^"'\n]+?)["']?\s*\n/);
  return m?.[1] ?? null;
}

/** Keywords typed as one line, split on commas (ASCII or Chinese) and 、; blanks and repeats dropped. */
export function parseKeywords(text: string): string[] {
  const out: string[] = [];
  for (const k of text.split(/[,，、]/)) {
    const w = k.trim();
    if (w !== "" && !out.includes(w)) out.push(w);
  }
  return out;
}
