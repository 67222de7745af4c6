/**
 * The tool registry: the single list of tools. The model's schemas, MCP's tool list and the web's
 * labels all come from here; a tool that is not listed does not exist.
 */
import { bindTool, type BoundTool } from "./bind";
import { checkBackgroundTasksHandler } from "./handlers/check-background-tasks";
import { getTimeHandler } from "./handlers/get-time";
import { renameSessionHandler } from "./handlers/rename-session";
import { checkBackgroundTasksSpec } from "./specs/check-background-tasks";
import { getTimeSpec } from "./specs/get-time";
import { renameSessionSpec } from "./specs/rename-session";

/** Every tool, in the order the model sees them. */
export const TOOLS: readonly BoundTool[] = [
  bindTool(getTimeSpec, getTimeHandler),
  bindTool(checkBackgroundTasksSpec, checkBackgroundTasksHandler),
  bindTool(renameSessionSpec, renameSessionHandler),
];

/** Looks a tool up by name. */
export function findTool(name: string): BoundTool | undefined {
  return TOOLS.find((t) => t.spec.name === name);
}
