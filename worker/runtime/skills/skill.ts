/**
 * Skills: a named prompt template in markdown with `name` / `description` front matter
 * and a `{user_input}` slot. Only names and descriptions reach the system prompt; the full text comes
 * back when the model calls `execute_skill` (lazy loading).
 *
 * The front matter is parsed here rather than with a YAML library: exactly two string fields are
 * allowed, and a strict line parser gives precise rejection reasons without a YAML dependency.
 */
import { err, ok, type Result } from "../../lib/result";

/** A parsed skill. */
export interface Skill {
  name: string;
  description: string;
  body: string;
  builtin: boolean;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** Parses `---\nname: …\ndescription: …\n---\nbody`; any other shape is rejected with the reason. */
export function parseSkill(markdown: string, builtin = false): Result<Skill> {
  const text = markdown.replace(/\r\n/g, "\n");
  if (!text.startsWith("---\n")) return err("invalid_input", "skill must start with a front matter block (---)");
  const end = text.indexOf("\n---", 4);
  if (end === -1) return err("invalid_input", "front matter is not closed with ---");
  const fields = new Map<string, string>();
  for (const [i, line] of text.slice(4, end).split("\n").entries()) {
    if (line.trim() === "") continue;
    const m = line.match(/^([a-z_]+):\s*(.*)$/);
    if (!m?.[1]) return err("invalid_input", `front matter line ${i + 1} is not "key: value"`);
    if (m[1] !== "name" && m[1] !== "description")
      return err("invalid_input", `unknown front matter field "${m[1]}" (allowed: name, description)`);
    if (fields.has(m[1])) return err("invalid_input", `front matter field "${m[1]}" appears twice`);
    fields.set(m[1], (m[2] ?? "").trim().replace(/^["']|["']$/g, ""));
  }
  const name = fields.get("name");
  const description = fields.get("description");
  if (!name) return err("invalid_input", "front matter needs a name");
  if (!NAME.test(name))
    return err("invalid_input", "name must be a lower-case slug (a-z, 0-9, -), at most 32 characters");
  if (!description) return err("invalid_input", "front matter needs a description");
  if (description.length > 200) return err("invalid_input", "description is longer than 200 characters");
  const body = text
    .slice(end + 4)
    .replace(/^\n+/, "")
    .trim();
  if (body === "") return err("invalid_input", "skill body is empty");
  if (body.length > 8_000) return err("invalid_input", "skill body is longer than 8,000 characters");
  return ok({ name, description, body, builtin });
}

/** The skill's instructions with the user's input in its `{user_input}` slot. */
export function renderSkill(skill: Skill, userInput: string): string {
  return skill.body.includes("{user_input}")
    ? skill.body.replaceAll("{user_input}", userInput)
    : `${skill.body}\n\n${userInput}`.trim();
}

/** The `<system-reminder>` listing skills by name and description (after the stable prompt prefix). */
export function skillsReminder(skills: readonly Pick<Skill, "name" | "description">[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((s) => `- /${s.name}: ${s.description}`).join("\n");
  return `<system-reminder>\nSkills (call execute_skill with the name to get the full instructions, then follow them):\n${lines}\n</system-reminder>`;
}
