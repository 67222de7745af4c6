/** `read_file`: one file of the user's workspace (text, or a 50-row CSV/XLSX preview). */
import { z } from "zod";
import { defineToolSpec } from "./define";

/** Largest file read or written (bytes). */
export const WORKSPACE_MAX_BYTES = 2 * 1024 * 1024;
/** Rows of a CSV/XLSX preview. */
export const PREVIEW_ROWS = 50;

/** The `read_file` tool. */
export const readFileSpec = defineToolSpec({
  name: "read_file",
  title: { zh: "读取文件", en: "Read file" },
  description:
    "Reads a file of the user's workspace by relative path (see list_files). Text comes back from `offset`, at most maxChars characters; .csv and .xlsx files come back as a 50-row preview (header first) with the total row count. Files are at most 2 MB.",
  input: z.object({
    path: z.string().min(1).max(256).describe("relative path, e.g. reports/600519.md"),
    offset: z.number().int().min(0).default(0).describe("text files: first character to return"),
    maxChars: z.number().int().min(1).max(50000).default(20000).describe("text files: characters to return"),
  }),
  output: z.object({
    path: z.string(),
    size: z.number().int(),
    updatedAt: z.string(),
    kind: z.enum(["text", "csv", "xlsx"]),
    text: z.string().optional(),
    offset: z.number().int().optional(),
    totalChars: z.number().int().optional(),
    truncated: z.boolean(),
    rows: z.array(z.array(z.string())).optional().describe("csv/xlsx: the first rows, header first"),
    totalRows: z.number().int().optional(),
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
