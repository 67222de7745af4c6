/**
 * The registry adapted to MCP (application ring): the tool list comes from `TOOLS` filtered by
 * `specs/mcp-exposure.ts` (no second list), calls run the same handlers with the same zod input
 * validation. Every failure of a call — bad or oversized input, a refused write, a handler `err`, a
 * crash, an oversized result — is an MCP tool error (`isError: true`, `{ error: { code, message } }`
 * as text), never a transport failure. Background tools answer their task id and point at
 * `check_background_tasks`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { z } from "zod";
import type { BoundTool } from "./bind";
import type { ToolDeps } from "./deps";
import { mcpTier } from "./specs/mcp-exposure";

/** Largest tool input accepted over MCP (bytes of JSON). */
export const MCP_MAX_INPUT_BYTES = 64 * 1024;
/** Largest tool result returned over MCP (bytes of JSON). */
export const MCP_MAX_RESULT_BYTES = 1024 * 1024;
/** Error code of an oversized result (explicit, so a client knows to narrow its request). */
export const RESULT_TOO_LARGE = "RESULT_TOO_LARGE";

/** Who calls, and the request's cancel signal. */
export interface McpCaller {
  userId: string;
  signal: AbortSignal;
}

/** What one MCP request's server needs. */
export interface McpServerOptions {
  tools: readonly BoundTool[];
  deps: ToolDeps;
  caller: McpCaller;
  /** `MCP_ALLOW_WRITES`: tools with `readOnly: false` run only when true. */
  allowWrites: boolean;
  version: string;
  /** Call ids (ToolContext.toolCallId). */
  newId: () => string;
  /** Log of each call (tool, ok, ms). */
  onCall?: (event: { tool: string; ok: boolean; code?: string; ms: number }) => void;
}

/** The registry tools offered over MCP, in registry order. */
export function mcpTools(tools: readonly BoundTool[]): BoundTool[] {
  return tools.filter((t) => mcpTier(t.spec.name) !== undefined);
}

/** The MCP `tools/list` entry of one tool. */
export function toMcpTool(t: BoundTool): Tool {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(t.spec.input, { io: "input" }) as Record<string, unknown>;
  const a = t.spec.annotations;
  return {
    name: t.spec.name,
    title: t.spec.title.en,
    description: t.spec.description,
    inputSchema: { ...schema, type: "object" },
    annotations: {
      title: t.spec.title.en,
      readOnlyHint: a.readOnly,
      destructiveHint: !a.readOnly,
      openWorldHint: false,
    },
    _meta: {
      "wyckoff-edge/tier": mcpTier(t.spec.name),
      "wyckoff-edge/title-zh": t.spec.title.zh,
      "wyckoff-edge/background": a.background,
      "wyckoff-edge/requires-approval": a.requiresApproval,
    },
  };
}

function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: { code, message } }) }] };
}

function bytesOf(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** The answer of a background tool over MCP: no session to notify, so the client polls. */
function backgroundAnswer(value: unknown): unknown {
  const v = value as { task_id?: unknown };
  if (typeof v?.task_id !== "string") return value;
  return {
    ...v,
    message: `started in the background as ${v.task_id}; call check_background_tasks with this task_id for its status and, once succeeded, its result`,
    next: { tool: "check_background_tasks", arguments: { task_id: v.task_id } },
  };
}

/** Runs one `tools/call` and always answers a `CallToolResult`. */
export async function callMcpTool(name: string, args: unknown, o: McpServerOptions): Promise<CallToolResult> {
  const started = Date.now();
  const done = (result: CallToolResult, code?: string): CallToolResult => {
    o.onCall?.({ tool: name, ok: !result.isError, ...(code ? { code } : {}), ms: Date.now() - started });
    return result;
  };
  const fail = (code: string, message: string) => done(toolError(code, message), code);
  const bound = mcpTools(o.tools).find((t) => t.spec.name === name);
  if (!bound) return fail("not_found", `unknown tool ${name}; tools/list shows the available ones`);
  const inputBytes = bytesOf(JSON.stringify(args ?? {}));
  if (inputBytes > MCP_MAX_INPUT_BYTES)
    return fail("payload_too_large", `input is ${inputBytes} bytes; at most ${MCP_MAX_INPUT_BYTES} bytes (64 KiB)`);
  if (!bound.spec.annotations.readOnly && !o.allowWrites)
    return fail(
      "forbidden",
      `${name} changes user data; write tools are disabled over MCP (set MCP_ALLOW_WRITES=true to enable them)`,
    );
  const parsed = bound.spec.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(input)"}: ${i.message}`);
    return fail("invalid_input", `invalid arguments for ${name}: ${issues.join("; ")}`);
  }
  let result;
  try {
    result = await bound.handler(parsed.data, o.deps, {
      sessionId: "", // no chat session: background tasks report nowhere and are polled instead
      userId: o.caller.userId,
      toolCallId: o.newId(),
      signal: o.caller.signal,
    });
  } catch (error) {
    return fail("internal", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!result.ok) return fail(result.error.code, result.error.message);
  const value = bound.spec.annotations.background ? backgroundAnswer(result.value) : result.value;
  const text = JSON.stringify(value);
  const size = bytesOf(text);
  if (size > MCP_MAX_RESULT_BYTES)
    return fail(
      RESULT_TOO_LARGE,
      `the result is ${size} bytes; at most ${MCP_MAX_RESULT_BYTES} (1 MiB) — narrow the request`,
    );
  const structured = typeof value === "object" && value !== null && !Array.isArray(value);
  return done({
    content: [{ type: "text", text }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
  });
}

/** Builds the MCP server of one request (stateless: a new server per request). */
export function createMcpServer(o: McpServerOptions): Server {
  const server = new Server(
    { name: "wyckoff-edge", title: "wyckoff-edge", version: o.version },
    {
      capabilities: { tools: {} },
      instructions:
        "Wyckoff-method market research: search symbols, analyze one (phase, events, health), market overview and regime, screening and backtests (background: poll check_background_tasks), the user's portfolio and history. Tools that change data are refused unless the server enables writes.",
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(o.tools).map(toMcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callMcpTool(req.params.name, req.params.arguments, o));
  return server;
}
