/**
 * `/mcp`: the MCP server over Streamable HTTP (edge). Stateless: each POST builds a server from the
 * tool registry (`tools/to-mcp.ts`) and a fresh `WebStandardStreamableHTTPServerTransport` of the
 * official SDK in JSON-response mode, so no Durable Object or session state is needed and any
 * isolate can answer. GET (server-to-client SSE stream) and DELETE (session end) answer 405: there
 * are no sessions and nothing is pushed. The caller is the identity middleware's `userId`, as for
 * `/api/*`; the tools' ports are the ones a chat turn gets (`session/tool-deps.ts`).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import pkg from "../../package.json";
import type { AppEnv } from "../http/app-env";
import { createToolDeps } from "../session/tool-deps";
import { TOOLS } from "../tools/registry";
import { createMcpServer } from "../tools/to-mcp";
import { newId } from "../http/secrets";
import { createDb } from "../storage/db";
import { D1MarketCache } from "../storage/market-cache-repo";
import { MarketSnapshots } from "../storage/market-snapshot-repo";
import { inProcessScreener } from "./in-process-screener";
import { D1SyncStore } from "../storage/market-sync-repo";

/** Largest MCP request body (bytes); a tool's own input is capped at 64 KiB inside (a tool error). */
export const MCP_MAX_BODY_BYTES = 256 * 1024;

function methodNotAllowed(): Response {
  return new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST JSON-RPC to /mcp" },
      id: null,
    }),
    { status: 405, headers: { "content-type": "application/json", allow: "POST" } },
  );
}

/** The MCP route, mounted at `/mcp` after the identity middleware. */
export const mcpRoutes = new Hono<AppEnv>().all("/", async (c) => {
  if (c.req.method !== "POST") return methodNotAllowed();
  const { config, userId, log } = c.var;
  const session = {
    rename: () => Promise.reject(new Error("an MCP call has no chat session to rename")),
  };
  const server = createMcpServer({
    tools: TOOLS,
    deps: {
      ...createToolDeps(c.env, config, { session }),
      screener: inProcessScreener(
        new D1MarketCache(createDb(c.env.DB), new MarketSnapshots(c.env.DB, c.env.SPILLS)),
        config.marketData,
        new D1SyncStore(c.env.DB),
      ),
    },
    caller: { userId, signal: c.req.raw.signal },
    allowWrites: config.mcpAllowWrites,
    version: pkg.version,
    newId: () => newId("mcp_"),
    onCall: (event) => log.info("mcp_tool", { userId, ...event }),
    world: { liveMarket: config.marketData === "live", model: config.model !== undefined },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  await server.connect(transport);
  return transport.handleRequest(c.req.raw);
});
