/** `list_files`: the files of the user's workspace. */
import { z } from "zod";
import { defineToolSpec } from "./define";

/** The `list_files` tool. */
export const listFilesSpec = defineToolSpec({
  name: "list_files",
  title: { zh: "列出文件", en: "List files" },
  description:
    "Lists the files of the user's workspace (saved notes, reports, fetched pages under web/), with size and last write, by path. folder narrows to one folder (e.g. reports/); limit ≤ 200.",
  input: z.object({
    folder: z.string().max(256).default("").describe("relative folder, e.g. reports/; empty = everything"),
    limit: z.number().int().min(1).max(200).default(100),
  }),
  output: z.object({
    files: z.array(z.object({ path: z.string(), size: z.number().int(), updatedAt: z.string() })),
    truncated: z.boolean(),
    message: z.string(),
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
