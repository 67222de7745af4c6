/**
 * MCP inside workerd. The official MCP SDK client (`StreamableHTTPClientTransport`, its `fetch`
 * calling the worker) lists exactly the registry's exposed tools, analyses SIM.0001 from the offline
 * bundle, is refused a write by default and allowed one with MCP_ALLOW_WRITES and a token, starts a
 * background screening it then polls, and reads WyckoffAgent's diagnostic tools. The edge's web and
 * file tools: web-file-tools.test.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { TOOLS } from "../../worker/tools/registry";
import { mcpTier } from "../../worker/tools/specs/mcp-exposure";
import { testEnv } from "./test-env";
import { call, eventually } from "./turn-helpers";
const BASE = "http://wyckoff.test";
const ADMIN = "admin-secret-for-mcp-tests";
type Fetchish = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The worker as deployed (wrangler.toml vars: AUTH_MODE=local, writes off). */
const viaWorker: Fetchish = (url, init) => exports.default.fetch(new Request(url, init));

/** The app with other settings (same bindings otherwise). */
function viaApp(vars: Record<string, string>): Fetchish {
  return async (url, init) => createApp().request(String(url), init, { ...testEnv, ...vars } as Env);
}

async function mcpClient(fetchImpl: Fetchish, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    fetch: fetchImpl,
    requestInit: { headers },
  });
  const client = new Client({ name: "mcp-tools-test", version: "1" });
  await client.connect(transport);
  return client;
}

type CallResult = Awaited<ReturnType<Client["callTool"]>>;

function textOf(r: CallResult): unknown {
  const content = r.content as { type: string; text: string }[];
  return JSON.parse(content[0]?.text ?? "null");
}

beforeAll(async () => {
  const cache = new D1MarketCache(createDb(testEnv.DB));
  const bundle = buildOfflineBundle({ sp500Csv });
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series) await cache.putSeries(s);
}, 120_000);

describe("MCP over Streamable HTTP (official SDK client)", () => {
  it("lists exactly the registry's exposed tools with their schemas, and analyses SIM.0001", async () => {
    const client = await mcpClient(viaWorker);
    expect(client.getServerVersion()?.name).toBe("wyckoff-edge");
    const { tools } = await client.listTools();
    const exposed = TOOLS.filter((t) => mcpTier(t.spec.name) !== undefined);
    expect(tools.map((t) => t.name)).toEqual(exposed.map((t) => t.spec.name));
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["query_history", "analyze_stock", "update_portfolio"]),
    );
    const analyze = tools.find((t) => t.name === "analyze_stock");
    expect(analyze?.inputSchema).toMatchObject({ type: "object", required: ["code"] });
    expect(analyze?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "update_portfolio")?.annotations).toMatchObject({ readOnlyHint: false });

    const r = await client.callTool({ name: "analyze_stock", arguments: { code: "SIM.0001" } });
    expect(r.isError).toBeFalsy();
    const value = textOf(r) as {
      symbol: { id: string };
      analysis: { symbol: string; phase: { name: string } };
      latestDate: string;
    };
    expect(value.symbol.id).toBe("SIM.0001");
    expect(value.analysis.symbol).toBe("SIM.0001");
    expect(value.analysis.phase.name).toMatch(/^(NONE|ACC_[A-E]|MARKUP|DIST_[A-E]|MARKDOWN)$/);
    expect(r.structuredContent).toMatchObject({ symbol: { id: "SIM.0001" } });
    await client.close();
  });

  it("answers tool failures as tool errors (isError), never transport failures", async () => {
    const client = await mcpClient(viaWorker);
    const unknown = await client.callTool({ name: "analyze_stock", arguments: { code: "NOPE.9999" } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatchObject({ error: { code: expect.any(String) } });
    const bad = await client.callTool({ name: "analyze_stock", arguments: { code: "SIM.0001", days: 9999 } });
    expect(textOf(bad)).toMatchObject({ error: { code: "invalid_input" } });
    const big = await client.callTool({ name: "search_stock_by_name", arguments: { keyword: "x".repeat(70_000) } });
    expect(textOf(big)).toMatchObject({ error: { code: "payload_too_large" } });
    // A tool that is not offered is JSON-RPC −32602 (the spec's unknown-tool error), not a tool result.
    await expect(client.callTool({ name: "delegate_to_research", arguments: { task: "x" } })).rejects.toMatchObject({
      code: -32602,
    });
    await client.close();
  });

  it("refuses a tier-3 write by default and runs it with MCP_ALLOW_WRITES=true and a token", async () => {
    const byDefault = await mcpClient(viaWorker);
    const refused = await byDefault.callTool({
      name: "update_portfolio",
      arguments: { action: "set_cash", freeCash: 12345 },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatchObject({
      error: { code: "forbidden", message: expect.stringContaining("MCP_ALLOW_WRITES") },
    });
    await byDefault.close();

    const vars = { AUTH_MODE: "token", ADMIN_TOKEN: ADMIN, MCP_ALLOW_WRITES: "true" };
    const app = viaApp(vars);
    // No token: the transport is refused (401) before any MCP exchange.
    await expect(mcpClient(app)).rejects.toThrow();
    const issued = await app(`${BASE}/api/admin/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ user: "mcp-writer" }),
    });
    expect(issued.status).toBe(201);
    const { token } = (await issued.json()) as { token: string };
    const writer = await mcpClient(app, { authorization: `Bearer ${token}` });
    const done = await writer.callTool({
      name: "update_portfolio",
      arguments: { action: "set_cash", freeCash: 12345 },
    });
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toMatchObject({ success: true, freeCash: 12345 });
    const view = await writer.callTool({ name: "portfolio", arguments: {} });
    expect(JSON.stringify(textOf(view))).toContain("12345");
    await writer.close();

    // Same token, writes switched off: refused again.
    const readOnly = await mcpClient(viaApp({ ...vars, MCP_ALLOW_WRITES: "false" }), {
      authorization: `Bearer ${token}`,
    });
    const again = await readOnly.callTool({ name: "update_portfolio", arguments: { action: "set_cash", freeCash: 1 } });
    expect(textOf(again)).toMatchObject({ error: { code: "forbidden" } });
    await readOnly.close();
  });

  it("starts a background tool with a task id and a check_background_tasks path the client polls", async () => {
    const client = await mcpClient(viaWorker);
    const started = await client.callTool({ name: "screen_stocks", arguments: { board: "all", market: "cn" } });
    const accepted = textOf(started) as { task_id: string; next: { tool: string; arguments: { task_id: string } } };
    expect(accepted.task_id).toMatch(/^task_/);
    expect(accepted.next).toEqual({ tool: "check_background_tasks", arguments: { task_id: accepted.task_id } });
    const task = await eventually(async () => {
      const r = await client.callTool({ name: accepted.next.tool, arguments: accepted.next.arguments });
      const t = (textOf(r) as { tasks: { status: string; result?: unknown }[] }).tasks[0];
      return t && t.status !== "queued" && t.status !== "running" ? t : undefined;
    }, 30_000);
    expect(task.status).toBe("succeeded");
    expect(task.result).toMatchObject({ universe: "SIM" });
    await client.close();
  }, 45_000);

  it("answers GET and DELETE with 405 (stateless server), and keeps local mode to loopback clients", async () => {
    expect((await call("/mcp", { method: "GET", headers: { accept: "text/event-stream" } })).status).toBe(405);
    expect((await call("/mcp", { method: "DELETE" })).status).toBe(405);
    const remote = await call("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "cf-connecting-ip": "203.0.113.9",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(remote.status).toBe(403);
  });
});

describe("WyckoffAgent's diagnostic tools over MCP (official SDK client, offline bundle)", () => {
  it("lists wyckoff_diagnose, run_funnel_simulation and intraday_rescue_check as read-only, closed-world offline", async () => {
    const client = await mcpClient(viaWorker);
    const { tools } = await client.listTools();
    for (const name of ["wyckoff_diagnose", "run_funnel_simulation", "intraday_rescue_check"]) {
      const t = tools.find((x) => x.name === name);
      expect(t?.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      expect(t?.inputSchema, name).toMatchObject({ type: "object" });
    }
    await client.close();
  });

  it("wyckoff_diagnose answers the engine's range, triggers, stage and event for SIM.0001, as analyze_stock reads it", async () => {
    const client = await mcpClient(viaWorker);
    const r = await client.callTool({ name: "wyckoff_diagnose", arguments: { code: "SIM.0001" } });
    expect(r.isError).toBeFalsy();
    const d = textOf(r) as {
      code: string;
      asOf: string;
      trading_range: { support: number; resistance: number; mid: number; width_pct: number; support_tests: number };
      triggers: { type: string; status: string }[];
      stage: { phase: string; label: string };
      event: { event_id: string; label: string; confidence: number; reasons: string[]; watch_points: string[] };
      source: { simulated: boolean };
    };
    const a = textOf(await client.callTool({ name: "analyze_stock", arguments: { code: "SIM.0001" } })) as {
      analysis: {
        asOf: string;
        phase: { name: string };
        triggers: unknown[];
        tradingRange: { support: number; resistance: number } | null;
      };
    };
    expect(d.code).toBe("0001");
    expect(d.asOf).toBe(a.analysis.asOf);
    expect(d.stage.phase).toBe(a.analysis.phase.name);
    expect(d.triggers).toEqual(a.analysis.triggers);
    if (a.analysis.tradingRange) {
      expect(d.trading_range.support).toBeCloseTo(a.analysis.tradingRange.support, 3);
      expect(d.trading_range.resistance).toBeCloseTo(a.analysis.tradingRange.resistance, 3);
      expect(d.trading_range.mid).toBeCloseTo((d.trading_range.support + d.trading_range.resistance) / 2, 3);
      expect(d.trading_range.width_pct).toBeGreaterThan(0);
    } else expect(d.trading_range).toBeNull();
    expect(d.event.event_id).toContain(d.asOf);
    expect(d.event.confidence).toBeGreaterThan(0);
    expect(d.event.reasons.length).toBeGreaterThan(0);
    expect(d.source.simulated).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: "0001" });
    await client.close();
  });

  it("run_funnel_simulation runs the funnel in the call: layer counts, bounded candidates, regime, details", async () => {
    const client = await mcpClient(viaWorker);
    const r = await client.callTool({ name: "run_funnel_simulation", arguments: { board: "all", limit: 5 } });
    expect(r.isError).toBeFalsy();
    const f = textOf(r) as {
      success: boolean;
      universe: string;
      layers: { total_scanned: number; layer1_passed: number; layer2_passed: number };
      candidates: { code: string; verdict: string }[];
      regime: { state: string };
      details: { rejections: Record<string, unknown>; symbols_for_report: string[] };
    };
    expect(f.success).toBe(true);
    expect(f.universe).toBe("SIM");
    expect(f.layers.total_scanned).toBeGreaterThan(0);
    expect(f.layers.layer1_passed).toBeLessThanOrEqual(f.layers.total_scanned);
    expect(f.layers.layer2_passed).toBeLessThanOrEqual(f.layers.layer1_passed);
    expect(f.candidates.length).toBeLessThanOrEqual(5);
    expect(f.details.symbols_for_report.length).toBeLessThanOrEqual(5);
    expect(f.regime.state).toMatch(/^[A-Z_]+$/);
    const bad = await client.callTool({ name: "run_funnel_simulation", arguments: { board: "moon" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatchObject({ error: { code: "invalid_input" } });
    await client.close();
  }, 60_000);

  it("intraday_rescue_check classifies SIM.0001's session against its daily support; bad and unknown input refused", async () => {
    const client = await mcpClient(viaWorker);
    const r = await client.callTool({ name: "intraday_rescue_check", arguments: { code: "SIM.0001" } });
    expect(r.isError).toBeFalsy();
    const c = textOf(r) as {
      classification: string;
      closePosition: number;
      support: number | null;
      supportSource: string;
      reasons: string[];
      intraday: { vwap: number; strength: number };
    };
    expect(["washout", "distribution", "strong", "neutral"]).toContain(c.classification);
    expect(c.closePosition).toBeGreaterThanOrEqual(0);
    expect(c.closePosition).toBeLessThanOrEqual(1);
    expect(c.supportSource).not.toBe("none");
    expect(c.support).toBeGreaterThan(0);
    expect(c.intraday.vwap).toBeGreaterThan(0);
    const bad = await client.callTool({ name: "intraday_rescue_check", arguments: { code: "SIM.0001", interval: 7 } });
    expect(textOf(bad)).toMatchObject({ error: { code: "invalid_input" } });
    const missing = await client.callTool({ name: "wyckoff_diagnose", arguments: {} });
    expect(textOf(missing)).toMatchObject({ error: { code: "invalid_input" } });
    const real = await client.callTool({ name: "intraday_rescue_check", arguments: { code: "600519" } });
    expect(real.isError).toBe(true); // offline: the bundle has no minute bars for real symbols (said in the error)
    await expect(client.callTool({ name: "wyckoff_diagnosis", arguments: { code: "SIM.0001" } })).rejects.toMatchObject(
      {
        code: -32602,
      },
    );
    await client.close();
  });
});
