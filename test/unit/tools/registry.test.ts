/**
 * Registry coherence: names unique and snake_case, every spec bound to a handler, every input
 * convertible to JSON Schema, every tool given an MCP decision, and the MCP server (official SDK
 * client over an in-memory transport) listing exactly the exposed registry tools with their schemas.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { draftValue, formFields, initialDraft } from "../../../web/lib/schema-fields";
import { toolSpec, toolTitle } from "../../../web/lib/tool-catalog";
import { TOOL_SPECS } from "../../../worker/tools/specs/catalog";
import { MCP_EXPOSURE, mcpTier } from "../../../worker/tools/specs/mcp-exposure";
import { MODEL_TOOLS, TOOLS } from "../../../worker/tools/registry";
import { BUILTIN_SKILLS } from "../../../worker/runtime/skills/builtin";
import { ANALYSIS_TEMPLATE, createMcpServer, mcpTools } from "../../../worker/tools/to-mcp";
import { fakeToolDeps } from "../../support/runtime-harness";

const skills = {
  list: async () => [...BUILTIN_SKILLS],
  get: async (_user: string, name: string) => BUILTIN_SKILLS.find((s) => s.name === name) ?? null,
};

async function connect(
  allowWrites = false,
  world: { liveMarket: boolean; model: boolean } = { liveMarket: false, model: false },
): Promise<Client> {
  const server = createMcpServer({
    tools: TOOLS,
    deps: fakeToolDeps({ skills }),
    caller: { userId: "u1", signal: new AbortController().signal },
    allowWrites,
    version: "test",
    newId: () => "mcp_1",
    world,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "registry-test", version: "1" });
  await client.connect(b);
  return client;
}

describe("tool registry", () => {
  const names = TOOLS.map((t) => t.spec.name);

  it("has unique snake_case names", () => {
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it("binds every spec to a handler, with titles in both languages and a short description", () => {
    for (const t of TOOLS) {
      expect(typeof t.handler, t.spec.name).toBe("function");
      expect(t.spec.title.zh.length, t.spec.name).toBeGreaterThan(0);
      expect(t.spec.title.en.length, t.spec.name).toBeGreaterThan(0);
      expect(t.spec.description.length, t.spec.name).toBeLessThanOrEqual(450);
    }
  });

  it("converts every input (and output) to JSON Schema, inputs as objects", () => {
    for (const t of TOOLS) {
      const input = z.toJSONSchema(t.spec.input, { io: "input" }) as { type?: string };
      expect(input.type, t.spec.name).toBe("object");
      expect(() => z.toJSONSchema(t.spec.output, { io: "output", unrepresentable: "any" })).not.toThrow();
    }
  });

  it("gives every tool an MCP decision (a tier or a reason), and names no tool that does not exist", () => {
    expect(Object.keys(MCP_EXPOSURE).sort()).toEqual([...names].sort());
    for (const [name, e] of Object.entries(MCP_EXPOSURE))
      if ("excluded" in e) expect(e.excluded.length, name).toBeGreaterThan(20);
  });

  it("keeps MCP-only tools (WyckoffAgent's diagnostic three) out of the chat model's set, and offers them on MCP", () => {
    const only = ["wyckoff_diagnose", "run_funnel_simulation", "intraday_rescue_check"];
    for (const name of only) {
      expect(mcpTier(name), name).toBe(2);
      expect(names, name).toContain(name);
    }
    expect(MODEL_TOOLS.map((t) => t.spec.name)).toEqual(names.filter((n) => !only.includes(n)));
  });

  it("keeps write tools behind approval in chat and marks them for MCP's write switch", () => {
    for (const t of TOOLS.filter((t) => !t.spec.annotations.readOnly))
      if (mcpTier(t.spec.name) !== undefined) expect(t.spec.annotations.requiresApproval, t.spec.name).toBe(true);
  });
});

describe("one tool catalog", () => {
  it("the registry binds exactly the catalog's specs, in its order", () => {
    expect(TOOLS.map((t) => t.spec)).toEqual(TOOL_SPECS);
    TOOLS.forEach((t, i) => expect(t.spec, t.spec.name).toBe(TOOL_SPECS[i]));
  });

  it("the web knows every tool by the same spec, with its display names", () => {
    for (const spec of TOOL_SPECS) {
      expect(toolSpec(spec.name), spec.name).toBe(spec);
      expect(toolTitle(spec.name, "zh")).toBe(spec.title.zh);
      expect(toolTitle(spec.name, "en")).toBe(spec.title.en);
    }
    expect(toolSpec("no_such_tool")).toBeUndefined();
    expect(toolTitle("no_such_tool", "en")).toBe("no_such_tool");
  });

  it("every tool that asks first gets an approval form of fields, and a form round-trips the input", () => {
    const asking = TOOL_SPECS.filter((s) => s.annotations.requiresApproval);
    expect(asking.map((s) => s.name).sort()).toEqual(["rename_session", "update_portfolio", "write_file"]);
    for (const spec of asking) {
      const schema = z.toJSONSchema(spec.input, { io: "input" });
      const fields = formFields(schema);
      expect(fields, spec.name).not.toBeNull();
      const props = Object.keys((schema as { properties: object }).properties);
      expect(
        fields?.map((f) => f.name),
        spec.name,
      ).toEqual(props);
    }
    const write = z.toJSONSchema(toolSpec("write_file")?.input ?? z.never(), { io: "input" });
    expect(formFields(write)?.map((f) => f.kind)).toEqual(["text", "longtext"]);
    const update = z.toJSONSchema(toolSpec("update_portfolio")?.input ?? z.never(), { io: "input" });
    const input = { action: "delete_records", codes: ["600519", "000001"] };
    const draft = initialDraft(update, input);
    expect(draft).toMatchObject({ kind: "fields", values: { codes: "600519, 000001" }, lists: ["codes", "recordIds"] });
    expect(draftValue(draft)).toEqual(input);
    expect(toolSpec("update_portfolio")?.input.safeParse(draftValue(draft)).success).toBe(true);
  });
});

describe("MCP listing", () => {
  it("lists exactly the exposed registry tools, in registry order, with their input schemas", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const exposed = TOOLS.filter((t) => mcpTier(t.spec.name) !== undefined);
    expect(tools.map((t) => t.name)).toEqual(exposed.map((t) => t.spec.name));
    expect(mcpTools(TOOLS).map((t) => t.spec.name)).toEqual(exposed.map((t) => t.spec.name));
    for (const t of exposed) {
      const listed = tools.find((x) => x.name === t.spec.name);
      const { $schema: _s, ...schema } = z.toJSONSchema(t.spec.input, { io: "input" }) as Record<string, unknown>;
      expect(listed?.inputSchema, t.spec.name).toEqual(schema);
      expect(listed?.description).toBe(t.spec.description);
      // A background tool creates a task: not read-only in MCP's sense, though it changes no user data.
      const readOnly = t.spec.annotations.readOnly && !t.spec.annotations.background;
      expect(listed?.annotations?.readOnlyHint, t.spec.name).toBe(readOnly);
      // Destructive only for writes that overwrite or remove; the offline deployment is a closed world.
      expect(listed?.annotations?.destructiveHint, t.spec.name).toBe(
        !readOnly && ["update_portfolio", "write_file"].includes(t.spec.name),
      );
      expect(listed?.annotations?.openWorldHint, t.spec.name).toBe(false);
      expect(listed?._meta?.["wyckoff-edge/tier"]).toBe(mcpTier(t.spec.name));
    }
    for (const hidden of ["execute_skill", "delegate_to_research", "rename_session", "web_fetch"])
      expect(tools.map((t) => t.name)).not.toContain(hidden);
    await client.close();
  });

  it("answers tool failures as MCP tool errors (bad input, refused write, oversized input), an unknown tool as −32602", async () => {
    const client = await connect();
    const errorOf = (r: Awaited<ReturnType<Client["callTool"]>>) => {
      expect(r.isError).toBe(true);
      const content = r.content as { type: string; text: string }[];
      return (JSON.parse(content[0]?.text ?? "{}") as { error: { code: string; message: string } }).error;
    };
    // A tool that is not offered is a protocol error (−32602), not a tool result.
    await expect(client.callTool({ name: "rename_session", arguments: { title: "x" } })).rejects.toMatchObject({
      code: -32602,
    });
    expect(errorOf(await client.callTool({ name: "analyze_stock", arguments: { code: 42 } })).code).toBe(
      "invalid_input",
    );
    const write = errorOf(
      await client.callTool({ name: "update_portfolio", arguments: { action: "set_cash", freeCash: 1 } }),
    );
    expect(write).toMatchObject({ code: "forbidden" });
    expect(write.message).toContain("MCP_ALLOW_WRITES");
    const big = errorOf(
      await client.callTool({ name: "search_stock_by_name", arguments: { keyword: "x".repeat(70_000) } }),
    );
    expect(big.code).toBe("payload_too_large");
    await client.close();
  });

  it("marks market tools open-world only with live data, model tools only with a model", async () => {
    const live = await connect(false, { liveMarket: true, model: false });
    const hint = async (c: Client, name: string) =>
      (await c.listTools()).tools.find((t) => t.name === name)?.annotations?.openWorldHint;
    expect(await hint(live, "analyze_stock")).toBe(true);
    expect(await hint(live, "screen_stocks")).toBe(true);
    for (const name of ["wyckoff_diagnose", "run_funnel_simulation", "intraday_rescue_check"]) {
      expect(await hint(live, name), name).toBe(true);
      const t = (await live.listTools()).tools.find((x) => x.name === name);
      expect(t?.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
    expect(await hint(live, "generate_ai_report")).toBe(false);
    expect(await hint(live, "query_history")).toBe(false);
    expect(await hint(live, "write_file")).toBe(false);
    const model = await connect(false, { liveMarket: false, model: true });
    expect(await hint(model, "generate_ai_report")).toBe(true);
    expect(await hint(model, "analyze_stock")).toBe(false);
    await live.close();
    await model.close();
  });
});

describe("MCP prompts and resources", () => {
  it("offers every skill as a prompt with its user_input argument, rendered on prompts/get", async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {}, tools: {} });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(BUILTIN_SKILLS.map((s) => s.name));
    expect(prompts[0]?.arguments).toEqual([expect.objectContaining({ name: "user_input", required: false })]);
    const got = await client.getPrompt({ name: "screen", arguments: { user_input: "main board, 5 names" } });
    const text = (got.messages[0]?.content as { type: string; text: string } | undefined)?.text ?? "";
    expect(got.messages[0]?.role).toBe("user");
    expect(text).toContain("screen_stocks for: main board, 5 names");
    expect(text).not.toContain("{user_input}");
    await expect(client.getPrompt({ name: "no-such-skill" })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("lists the analysis resource template and refuses a URI outside it (−32002)", async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: ANALYSIS_TEMPLATE, mimeType: "application/json" }),
    ]);
    await expect(client.readResource({ uri: "file:///etc/passwd" })).rejects.toMatchObject({ code: -32002 });
    await client.close();
  });
});
