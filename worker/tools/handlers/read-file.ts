/** Handler of `read_file`: a workspace file as text from an offset, or a CSV/XLSX preview of 50 rows. */
import { parseCsv } from "../../lib/csv";
import { err, ok } from "../../lib/result";
import { checkWorkspacePath } from "../../lib/workspace-path";
import { readXlsxRows } from "../../lib/xlsx-rows";
import type { ToolHandler } from "../bind";
import { PREVIEW_ROWS, WORKSPACE_MAX_BYTES, type readFileSpec } from "../specs/read-file";

/** Reads one file of the caller's workspace. */
export const readFileHandler: ToolHandler<typeof readFileSpec> = async (input, deps, ctx) => {
  const path = checkWorkspacePath(input.path);
  if (!path.ok) return path;
  const file = await deps.files.get(ctx.userId, path.value);
  if (!file) return err("not_found", `no file ${path.value} in your workspace (list_files shows what is there)`);
  if (file.size > WORKSPACE_MAX_BYTES) return err("payload_too_large", `${path.value} is larger than 2 MB`);
  const meta = { path: file.path, size: file.size, updatedAt: file.updatedAt };
  const lower = path.value.toLowerCase();
  if (lower.endsWith(".xlsx")) {
    const sheet = readXlsxRows(file.bytes, PREVIEW_ROWS);
    if (!sheet.ok) return sheet;
    const { rows, totalRows } = sheet.value;
    return ok({ ...meta, kind: "xlsx" as const, rows, totalRows, truncated: totalRows > rows.length });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(file.bytes);
  } catch {
    return err("invalid_input", `${path.value} is not UTF-8 text (only text, CSV and XLSX files can be read)`);
  }
  if (lower.endsWith(".csv")) {
    const all = parseCsv(text);
    const rows = all.slice(0, PREVIEW_ROWS);
    return ok({ ...meta, kind: "csv" as const, rows, totalRows: all.length, truncated: all.length > rows.length });
  }
  const slice = text.slice(input.offset, input.offset + input.maxChars);
  return ok({
    ...meta,
    kind: "text" as const,
    text: slice,
    offset: input.offset,
    totalChars: text.length,
    truncated: input.offset + slice.length < text.length,
  });
};
