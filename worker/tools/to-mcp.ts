/**
 * The registry adapted to MCP (application ring): the tool list comes from `TOOLS` filtered by
 * `specs/mcp-exposure.ts` (no second list), calls run the same handlers with the same zod input
 * validation. Every failure of a call — bad or oversized input, a refused write, a handler `err`, a
 * crash, an oversized result — is an MCP tool error (`isError: true`, `{ error: { code, message } }`
 * as text), never a transport failure; a tool that is not offered is a protocol error (−32602
 * Invalid params, as the spec says for unknown tools). Background tools answer their task id and
 * point at `check_background_tasks`. Skills (built-in and the caller's own) are MCP prompts; the
 * latest analysis of a symbol is the resource `wyckoff://analysis/{symbol}`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { z } from "zod";
import type { BoundTool } from "./bind";
import type { ToolDeps } from "./deps";
import { renderSkill } from "../runtime/skills/skill";
import { crashMessage, invokeTool } from "./invoke-tool";
import { mcpEntry, mcpTier } from "./specs/mcp-exposure";

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
  /**
   * What is outside this deployment for this request (MCP `openWorldHint`): live market-data
   * providers (`MARKET_DATA=live`) and a configured model. Both false when absent.
   */
  world?: { liveMarket: boolean; model: boolean };
}

/** The registry tools offered over MCP, in registry order. */
export function mcpTools(tools: readonly BoundTool[]): BoundTool[] {
  return tools.filter((t) => mcpTier(t.spec.name) !== undefined);
}

/**
 * The MCP `tools/list` entry of one tool. Annotations follow the spec's meaning: `readOnlyHint` —
 * changes nothing (a background tool creates a task, so it is not read-only); `destructiveHint` —
 * may overwrite or delete (only writes that do, e.g. setting holdings or overwriting a file);
 * `openWorldHint` — reaches outside the deployment (live market providers, the model) for this
 * server's settings.
 */
export function toMcpTool(t: BoundTool, world: McpServerOptions["world"] = { liveMarket: false, model: false }): Tool {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(t.spec.input, { io: "input" }) as Record<string, unknown>;
  const a = t.spec.annotations;
  const entry = mcpEntry(t.spec.name);
  const readOnly = a.readOnly && !a.background;
  const openWorld = entry?.world === "market" ? world.liveMarket : entry?.world === "model" ? world.model : false;
  return {
    name: t.spec.name,
    title: t.spec.title.en,
    description: t.spec.description,
    inputSchema: { ...schema, type: "object" },
    annotations: {
      title: t.spec.title.en,
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && entry?.destructive === true,
      idempotentHint: readOnly,
      openWorldHint: openWorld,
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

/**
 * Runs one `tools/call`: a `CallToolResult` for everything the tool itself decides (errors as
 * `isError`); an unknown or unoffered tool throws −32602 (the SDK answers it as a JSON-RPC error).
 */
export async function callMcpTool(name: string, args: unknown, o: McpServerOptions): Promise<CallToolResult> {
  const started = Date.now();
  const done = (result: CallToolResult, code?: string): CallToolResult => {
    o.onCall?.({ tool: name, ok: !result.isError, ...(code ? { code } : {}), ms: Date.now() - started });
    return result;
  };
  const fail = (code: string, message: string) => done(toolError(code, message), code);
  const bound = mcpTools(o.tools).find((t) => t.spec.name === name);
  if (!bound) {
    o.onCall?.({ tool: name, ok: false, code: "unknown_tool", ms: Date.now() - started });
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}; tools/list shows the available ones`);
  }
  const inputBytes = bytesOf(JSON.stringify(args ?? {}));
  if (inputBytes > MCP_MAX_INPUT_BYTES)
    return fail("payload_too_large", `input is ${inputBytes} bytes; at most ${MCP_MAX_INPUT_BYTES} bytes (64 KiB)`);
  if (!bound.spec.annotations.readOnly && !o.allowWrites)
    return fail(
      "forbidden",
      `${name} changes user data; write tools are disabled over MCP (set MCP_ALLOW_WRITES=true to enable them)`,
    );
  const run = await invokeTool(bound, args ?? {}, o.deps, {
    sessionId: "", // no chat session: background tasks report nowhere and are polled instead
    userId: o.caller.userId,
    toolCallId: o.newId(),
    signal: o.caller.signal,
  });
  if (run.kind === "invalid_input") return fail("invalid_input", run.message);
  if (run.kind === "crashed") return fail("internal", crashMessage(name, run.error));
  if (run.kind === "failed") return fail(run.error.code, run.error.message);
  const value = bound.spec.annotations.background ? backgroundAnswer(run.value) : run.value;
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

/** URI template of the analysis resource. */
export const ANALYSIS_TEMPLATE = "wyckoff://analysis/{symbol}";
const ANALYSIS_URI = /^wyckoff:\/\/analysis\/([^/?#]{1,32})$/;
/** MCP's "resource not found" error code (spec: −32002). */
const RESOURCE_NOT_FOUND = -32002;

function analysisUri(symbol: string): string {
  return `wyckoff://analysis/${encodeURIComponent(symbol)}`;
}

/** Skills as MCP prompts: one optional argument, the skill's `{user_input}`. */
async function listPrompts(o: McpServerOptions): Promise<Prompt[]> {
  const skills = await o.deps.skills.list(o.caller.userId);
  return skills.map((s) => ({
    name: s.name,
    title: s.name,
    description: s.description,
    arguments: [
      { name: "user_input", description: "what the skill should work on (codes, focus, period)", required: false },
    ],
  }));
}

async function getPrompt(
  name: string,
  args: Record<string, string> | undefined,
  o: McpServerOptions,
): Promise<GetPromptResult> {
  const skill = await o.deps.skills.get(o.caller.userId, name);
  if (!skill)
    throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}; prompts/list shows the available ones`);
  return {
    description: skill.description,
    messages: [{ role: "user", content: { type: "text", text: renderSkill(skill, args?.["user_input"] ?? "") } }],
  };
}

/** Concrete analysis resources: the caller's holdings (any symbol is readable through the template). */
async function listResources(o: McpServerOptions): Promise<Resource[]> {
  const portfolio = o.tools.find((t) => t.spec.name === "portfolio");
  if (!portfolio) return [];
  const input = portfolio.spec.input.safeParse({ mode: "view" });
  if (!input.success) return [];
  const ctx = { sessionId: "", userId: o.caller.userId, toolCallId: o.newId(), signal: o.caller.signal };
  const result = await portfolio.handler(input.data, o.deps, ctx).catch(() => null);
  const positions = result?.ok
    ? ((result.value as { positions?: { code: string; name?: string }[] }).positions ?? [])
    : [];
  return positions.map((p) => ({
    uri: analysisUri(p.code),
    name: `analysis-${p.code}`,
    title: `Wyckoff analysis of ${p.name ? `${p.name} (${p.code})` : p.code}`,
    mimeType: "application/json",
  }));
}

const ANALYSIS_RESOURCE_TEMPLATE: ResourceTemplate = {
  uriTemplate: ANALYSIS_TEMPLATE,
  name: "analysis",
  title: "Latest Wyckoff analysis of a symbol",
  description:
    "The engine's reading of the symbol's latest daily bars: phase, trading range, events, triggers, health, stops and targets (as analyze_stock mode=diagnose). symbol: a code such as 600519, AAPL or SIM.0001.",
  mimeType: "application/json",
};

async function readAnalysis(uri: string, o: McpServerOptions) {
  const m = ANALYSIS_URI.exec(uri);
  if (!m?.[1]) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (expected ${ANALYSIS_TEMPLATE})`);
  const symbol = decodeURIComponent(m[1]);
  const result = await callMcpTool("analyze_stock", { code: symbol, mode: "diagnose" }, o);
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? "";
  if (result.isError) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}: ${text}`, { uri });
  return { contents: [{ uri: analysisUri(symbol), mimeType: "application/json", text }] };
}

/** Builds the MCP server of one request (stateless: a new server per request). */
export function createMcpServer(o: McpServerOptions): Server {
  const server = new Server(
    { name: "wyckoff-edge", title: "wyckoff-edge", version: o.version },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions:
        "Wyckoff-method market research: search symbols, analyze one (phase, events, health), market overview and regime, screening and backtests (background: poll check_background_tasks), the user's portfolio and history. Tools that change data are refused unless the server enables writes. Prompts are the research skills (screen, checkup, report, strategy, backtest, and the user's own); the resource template wyckoff://analysis/{symbol} reads a symbol's latest analysis.",
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: mcpTools(o.tools).map((t) => toMcpTool(t, o.world)),
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callMcpTool(req.params.name, req.params.arguments, o));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await listPrompts(o) }));
  server.setRequestHandler(GetPromptRequestSchema, (req) => getPrompt(req.params.name, req.params.arguments, o));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(o) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [ANALYSIS_RESOURCE_TEMPLATE],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => readAnalysis(req.params.uri, o));
  return server;
}
