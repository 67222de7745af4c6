/** `rename_session`: gives the conversation a descriptive title (changes user data, so it asks first). */
import { z } from "zod";
import { MAX_TITLE_LENGTH } from "../../contracts/api";
import { defineToolSpec } from "./define";

/** The `rename_session` tool. */
export const renameSessionSpec = defineToolSpec({
  name: "rename_session",
  title: { zh: "重命名会话", en: "Rename session" },
  description:
    "Renames this research session, e.g. to the stock and question studied ('600519 贵州茅台 · 吸筹判断'). Use when the user asks to name or rename the session. The user approves the change first.",
  input: z.object({ title: z.string().trim().min(1).max(MAX_TITLE_LENGTH).describe("the new title") }),
  output: z.object({ title: z.string() }),
  annotations: { readOnly: false, concurrencySafe: false, requiresApproval: true, background: false },
});
