/** `execute_skill`: the full instructions of a skill listed in the system reminder (lazy loading). */
import { z } from "zod";
import { defineToolSpec } from "./define";

/** The `execute_skill` tool. */
export const executeSkillSpec = defineToolSpec({
  name: "execute_skill",
  title: { zh: "执行技能", en: "Execute skill" },
  description:
    "Loads a skill listed in <system-reminder> (e.g. screen, checkup, report, strategy, backtest, or the user's own) and returns its full instructions with the user's input filled in. Call it when the user types /<name> or asks for what a skill does; then follow the instructions.",
  input: z.object({
    name: z.string().trim().min(1).max(32).describe("skill name without the slash"),
    user_input: z.string().max(4_000).default("").describe("what the user asked, for the skill's {user_input}"),
  }),
  output: z.object({ name: z.string(), description: z.string(), instructions: z.string() }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
