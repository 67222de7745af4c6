/** Handler of `write_file`: writes UTF-8 text into the caller's workspace (runs only after approval). */
import { err, ok } from "../../lib/result";
import { checkWorkspacePath } from "../../lib/workspace-path";
import type { ToolHandler } from "../bind";
import { WORKSPACE_MAX_BYTES } from "../specs/read-file";
import type { writeFileSpec } from "../specs/write-file";

function contentTypeOf(path: string): string {
  const ext = path.toLowerCase().split(".").pop() ?? "";
  const types: Record<string, string> = {
    md: "text/markdown",
    csv: "text/csv",
    json: "application/json",
    html: "text/html",
    xml: "application/xml",
  };
  return `${types[ext] ?? "text/plain"}; charset=utf-8`;
}

/** Writes one file. */
export const writeFileHandler: ToolHandler<typeof writeFileSpec> = async (input, deps, ctx) => {
  const path = checkWorkspacePath(input.path);
  if (!path.ok) return path;
  if (path.value.toLowerCase().endsWith(".xlsx"))
    return err("invalid_input", "write_file writes text; save tables as .csv instead of .xlsx");
  const bytes = new TextEncoder().encode(input.content);
  if (bytes.byteLength > WORKSPACE_MAX_BYTES)
    return err("payload_too_large", `the content is ${bytes.byteLength} bytes; files are at most 2 MB`);
  const before = await deps.files.get(ctx.userId, path.value);
  const entry = await deps.files.put(ctx.userId, path.value, bytes, contentTypeOf(path.value));
  return ok({ path: entry.path, size: entry.size, updatedAt: entry.updatedAt, replaced: before !== null });
};
