/**
 * Running one tool, the one way both callers do it (application ring): the arguments are checked
 * against the spec's zod input (failures as `invalid_input` with every issue named), the handler
 * runs, and a throw becomes a `crashed` outcome rather than an exception. The turn executor
 * (runtime/tool-executor.ts) and MCP (tools/to-mcp.ts) call it; approvals, spills, MCP's size and
 * write limits stay with them.
 */
import { issueMessages } from "../contracts/errors";
import type { ErrorData } from "../lib/result";
import type { BoundTool } from "./bind";
import type { ToolContext, ToolDeps } from "./deps";

/** How one invocation ended. */
export type ToolInvocation =
  | { kind: "ok"; value: unknown }
  /** The arguments do not match the spec's input schema (`message` in English; `messages` in both UI languages). */
  | { kind: "invalid_input"; message: string; messages: { en: string; zh: string } }
  /** The handler answered `err(...)`: an expected failure the caller reads. */
  | { kind: "failed"; error: ErrorData }
  /** The handler threw (a bug, or the call was aborted). */
  | { kind: "crashed"; error: unknown };

/** Validates `input` and runs `bound`'s handler. */
export async function invokeTool(
  bound: BoundTool,
  input: unknown,
  deps: ToolDeps,
  context: ToolContext,
): Promise<ToolInvocation> {
  const parsed = bound.spec.input.safeParse(input);
  if (!parsed.success) {
    const issues = issueMessages(bound.spec.input, input, parsed.error.issues);
    const messages = {
      en: `invalid arguments for ${bound.spec.name}: ${issues.en}`,
      zh: `${bound.spec.name} 的参数无效：${issues.zh}`,
    };
    return { kind: "invalid_input", message: messages.en, messages };
  }
  try {
    const result = await bound.handler(parsed.data, deps, context);
    return result.ok ? { kind: "ok", value: result.value } : { kind: "failed", error: result.error };
  } catch (error) {
    return { kind: "crashed", error };
  }
}

/** The message of a crash, as callers report it (`<tool> failed: <why>`). */
export function crashMessage(toolName: string, error: unknown): string {
  return `${toolName} failed: ${error instanceof Error ? error.message : String(error)}`;
}
