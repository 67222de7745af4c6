/**
 * An MCP client connected to `npm start`: the official SDK's Streamable HTTP client against the
 * started app (offline data, AUTH_MODE=local on loopback) lists the tools and analyses a symbol end
 * to end; a write is refused (MCP_ALLOW_WRITES is off by default).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const appUrl = inject("appUrl");
let client: Client;

beforeAll(async () => {
  client = new Client({ name: "e2e-mcp", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}/mcp`)));
});

afterAll(async () => {
  await client.close();
});

function textOf(r: Awaited<ReturnType<Client["callTool"]>>): unknown {
  return JSON.parse((r.content as { text: string }[])[0]?.text ?? "null");
}

describe("MCP against npm start", () => {
  it("lists the tools and analyses SIM.0001 end to end", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "query_history",
        "search_stock_by_name",
        "analyze_stock",
        "portfolio",
        "update_portfolio",
      ]),
    );
    const found = await client.callTool({ name: "search_stock_by_name", arguments: { keyword: "SIM.0001" } });
    expect(found.isError).toBeFalsy();
    const r = await client.callTool({ name: "analyze_stock", arguments: { code: "SIM.0001" } });
    expect(r.isError).toBeFalsy();
    const value = textOf(r) as {
      symbol: { id: string };
      latestDate: string;
      analysis: { symbol: string; asOf: string };
    };
    expect(value.symbol.id).toBe("SIM.0001");
    expect(value.analysis.symbol).toBe("SIM.0001");
    expect(value.analysis.asOf).toBe(value.latestDate);
  });

  it("refuses a write by default, as a tool error", async () => {
    const r = await client.callTool({ name: "update_portfolio", arguments: { action: "set_cash", freeCash: 1 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatchObject({ error: { code: "forbidden" } });
  });
});
