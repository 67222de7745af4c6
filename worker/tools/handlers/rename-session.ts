/** Handler of `rename_session`: through the SessionControl port. */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { renameSessionSpec } from "../specs/rename-session";

/** Renames the calling session. */
export const renameSessionHandler: ToolHandler<typeof renameSessionSpec> = async (input, deps) => {
  return ok(await deps.session.rename(input.title));
};
