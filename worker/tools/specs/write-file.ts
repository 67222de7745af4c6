/** `write_file`: writes a text file to the user's workspace; the user approves first. */
import { z } from "zod";
import { defineToolSpec } from "./define";

/** The `write_file` tool. */
export const writeFileSpec = defineToolSpec({
  name: "write_file",
  title: { zh: "写入文件", en: "Write file" },
  description:
    "Writes a UTF-8 text file (notes, Markdown reports, CSV, JSON) to the user's workspace at a relative path, replacing any file there; the user approves first. At most 2 MB. Use when the user asks to save something; read it back with read_file.",
  input: z.object({
    path: z.string().min(1).max(256).describe("relative path, e.g. notes/watchlist.csv"),
    content: z
      .string()
      .max(2 * 1024 * 1024)
      .describe("the whole file, UTF-8 text"),
  }),
  output: z.object({
    path: z.string(),
    size: z.number().int(),
    updatedAt: z.string(),
    replaced: z.boolean(),
  }),
  annotations: { readOnly: false, concurrencySafe: false, requiresApproval: true, background: false },
});
