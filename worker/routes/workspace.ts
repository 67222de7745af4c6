/**
 * Workspace routes for the reading room: what is at a path of the caller's file workspace (exists,
 * size, last write), so the approval dialog of `write_file` can say "new file" or "replaces N bytes"
 * before the person allows it. Read-only; the path jail is the tools' own (`checkWorkspacePath`).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { WorkspaceStat } from "../contracts/api";
import type { AppEnv } from "../http/app-env";
import { AppError } from "../lib/app-error";
import { checkWorkspacePath } from "../lib/workspace-path";
import { R2Workspace } from "../storage/r2-workspace";

const StatQuery = z.object({ path: z.string().max(1000) });

/** Workspace routes, mounted at /api/workspace. */
export const workspaceRoutes = new Hono<AppEnv>().get("/stat", async (c) => {
  const q = StatQuery.safeParse(c.req.query());
  if (!q.success)
    throw new AppError("invalid_input", 400, "path: a file path is required (?path=…)", { details: { field: "path" } });
  const path = checkWorkspacePath(q.data.path);
  if (!path.ok) throw new AppError("invalid_input", 400, path.error.message, { details: { field: "path" } });
  const file = await new R2Workspace(c.env.SPILLS).get(c.var.userId, path.value);
  return c.json({
    path: path.value,
    exists: file !== null,
    size: file?.size ?? null,
    updatedAt: file?.updatedAt ?? null,
  } satisfies WorkspaceStat);
});
