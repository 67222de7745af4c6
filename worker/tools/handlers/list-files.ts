/** Handler of `list_files`: the caller's workspace files under a folder. */
import { ok } from "../../lib/result";
import { checkWorkspacePath } from "../../lib/workspace-path";
import type { ToolHandler } from "../bind";
import type { listFilesSpec } from "../specs/list-files";

/** Lists files by path. */
export const listFilesHandler: ToolHandler<typeof listFilesSpec> = async (input, deps, ctx) => {
  const folder = checkWorkspacePath(input.folder, { folder: true });
  if (!folder.ok) return folder;
  const { files, truncated } = await deps.files.list(ctx.userId, folder.value, input.limit);
  const where = folder.value === "" ? "your workspace" : folder.value;
  const message =
    files.length === 0
      ? `no files in ${where}`
      : `${files.length} file(s) in ${where}${truncated ? ` (first ${input.limit}; raise limit or narrow folder)` : ""}`;
  return ok({ files, truncated, message });
};
