/** Handler of `execute_skill`: the skill from the SkillStore port, rendered with the user's input. */
import { err, ok } from "../../lib/result";
import { renderSkill } from "../../runtime/skills/skill";
import type { ToolHandler } from "../bind";
import type { executeSkillSpec } from "../specs/execute-skill";

/** Loads and renders a skill. */
export const executeSkillHandler: ToolHandler<typeof executeSkillSpec> = async (input, deps, ctx) => {
  const name = input.name.replace(/^\//, "");
  const skill = await deps.skills.get(ctx.userId, name);
  if (!skill) {
    const names = (await deps.skills.list(ctx.userId)).map((s) => s.name).join(", ");
    return err("not_found", `no skill named ${name}; available: ${names}`);
  }
  return ok({
    name: skill.name,
    description: skill.description,
    instructions: renderSkill({ ...skill }, input.user_input),
  });
};
