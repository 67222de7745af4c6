import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import {
  classifyModelError,
  diagnose,
  IdleTimeoutError,
  languageOf,
  languageSignal,
  turnLanguage,
} from "../../../worker/runtime/errors";
import { extractSymbol, fitInput, planCalls } from "../../../worker/runtime/offline/intents";
import { parseToolCallBlock } from "../../../worker/runtime/text-tool-calls";
import { partitionCalls } from "../../../worker/runtime/tool-executor";
import { sessionAt } from "../../../worker/tools/handlers/get-time";

const apiError = (status: number, body = "") =>
  new APICallError({
    message: `HTTP ${status}`,
    url: "http://x/v1/chat/completions",
    requestBodyValues: {},
    statusCode: status,
    responseBody: body,
    isRetryable: status >= 500 || status === 429,
  });

describe("partitionCalls", () => {
  it("groups consecutive safe calls up to 5 and isolates unsafe ones, keeping order", () => {
    const calls = ["s1", "s2", "U1", "s3", "s4", "s5", "s6", "s7", "s8", "U2"];
    expect(partitionCalls(calls, (c) => c.startsWith("s"))).toEqual([
      ["s1", "s2"],
      ["U1"],
      ["s3", "s4", "s5", "s6", "s7"],
      ["s8"],
      ["U2"],
    ]);
  });
});

describe("classifyModelError", () => {
  it("separates retriable failures from configuration errors", () => {
    expect(classifyModelError(apiError(429))).toMatchObject({ kind: "rate_limited", retriable: true });
    expect(classifyModelError(apiError(502))).toMatchObject({ kind: "upstream", retriable: true });
    expect(classifyModelError(apiError(408))).toMatchObject({ kind: "timeout", retriable: true });
    expect(classifyModelError(apiError(401))).toMatchObject({ kind: "auth", retriable: false });
    expect(classifyModelError(apiError(404, '{"error":{"message":"model not found"}}'))).toMatchObject({
      kind: "unknown_model",
      retriable: false,
    });
    expect(classifyModelError(apiError(400, "This model's maximum context length is 65536 tokens"))).toMatchObject({
      kind: "context_too_long",
      retriable: false,
    });
    expect(classifyModelError(apiError(400, "bad"))).toMatchObject({ kind: "bad_request", retriable: false });
  });

  it("recognises network failures by their causes", () => {
    const wrap = (message: string) => new Error("Cannot connect to API", { cause: new Error(message) });
    expect(classifyModelError(wrap("getaddrinfo ENOTFOUND api.example"))).toMatchObject({
      kind: "dns",
      retriable: true,
    });
    expect(classifyModelError(wrap("connect ECONNREFUSED 127.0.0.1:9"))).toMatchObject({
      kind: "refused",
      retriable: true,
    });
    expect(classifyModelError(wrap("unable to verify the first certificate"))).toMatchObject({
      kind: "tls",
      retriable: false,
    });
    expect(classifyModelError(wrap("other side closed"))).toMatchObject({ kind: "connection", retriable: true });
    expect(classifyModelError(new IdleTimeoutError(60000))).toMatchObject({ kind: "idle_timeout", retriable: true });
  });

  it("reads a language from words, not from commands, codes or identifiers", () => {
    expect(languageSignal("分析 600519")).toBe("zh");
    expect(languageSignal("/screen 沪深")).toBe("zh");
    expect(languageSignal("analyze 399006")).toBe("en");
    expect(languageSignal("what about AAPL?")).toBe("en");
    for (const none of ["/screen", "/screen cn", "600000", "AAPL", "399006.sz", "600000 k-s_abc", "?"])
      expect(languageSignal(none), none).toBeUndefined();
    expect(turnLanguage("/screen", "zh")).toBe("zh");
    expect(turnLanguage("/screen")).toBe("en");
    expect(turnLanguage("analyze 600000", "zh")).toBe("en");
    expect(turnLanguage("分析 AAPL", "en")).toBe("zh");
  });

  it("diagnoses in the user's language with the HTTP status", () => {
    expect(languageOf("分析 600519")).toBe("zh");
    expect(languageOf("analyze AAPL")).toBe("en");
    expect(diagnose(classifyModelError(apiError(401)), "zh")).toBe(
      "模型服务拒绝了密钥（401/403）。请检查 LLM_API_KEY。 [HTTP 401]",
    );
    expect(diagnose(classifyModelError(apiError(401)), "en")).toContain("Check LLM_API_KEY");
  });
});

describe("text tool calls", () => {
  it("parses Hermes/Qwen-style blocks with arguments or parameters", () => {
    expect(parseToolCallBlock('{"name":"get_time","arguments":{"market":"us"}}')).toEqual({
      toolName: "get_time",
      input: '{"market":"us"}',
    });
    expect(parseToolCallBlock(' {"name":"x","parameters":{"a":1}} ')).toEqual({ toolName: "x", input: '{"a":1}' });
    expect(parseToolCallBlock("not json")).toBeNull();
    expect(parseToolCallBlock('{"arguments":{}}')).toBeNull();
  });
});

describe("offline intents", () => {
  const tools = [
    { name: "get_time", properties: { market: {} } },
    { name: "analyze_stock", properties: { code: {}, mode: {} } },
    { name: "search_stock_by_name", properties: { keyword: {} } },
  ];

  it("extracts codes, tickers and names", () => {
    expect(extractSymbol("分析一下 sh600519 的走势")).toBe("SH.600519");
    expect(extractSymbol("analyze AAPL please")).toBe("AAPL");
    expect(extractSymbol("analyze the S&P 500")).toBe("US.SPX");
    expect(extractSymbol("分析 SIM.0001")).toBe("SIM.0001");
    expect(extractSymbol("analyze sim.idx1 now")).toBe("SIM.IDX1");
    expect(extractSymbol("分析贵州茅台")).toBe("贵州茅台");
  });

  it("plans calls with inputs fitted to each tool's schema, and reports missing tools", () => {
    expect(planCalls("分析 000001", tools).calls).toEqual([
      { intent: "analyze", toolName: "analyze_stock", input: { code: "000001" } },
    ]);
    expect(planCalls("is the US market open?", tools).calls).toEqual([
      { intent: "time", toolName: "get_time", input: { market: "us" } },
    ]);
    expect(planCalls("查找 茅台", tools).calls[0]).toMatchObject({
      toolName: "search_stock_by_name",
      input: { keyword: "茅台" },
    });
    expect(planCalls("search for Apple", tools).calls[0]).toMatchObject({
      toolName: "search_stock_by_name",
      input: { keyword: "Apple" },
    });
    expect(planCalls("帮我回测一下", tools)).toEqual({ calls: [], missing: ["run_backtest"] });
    expect(fitInput({ name: "t", properties: { symbol: {} } }, { symbol: "AAPL", market: "us" })).toEqual({
      symbol: "AAPL",
    });
  });
});

describe("get_time sessions", () => {
  it("knows the A-share lunch break and the US regular session", () => {
    expect(sessionAt("cn", 10 * 60, "Monday")).toBe("morning");
    expect(sessionAt("cn", 12 * 60, "Monday")).toBe("lunch_break");
    expect(sessionAt("cn", 14 * 60, "Friday")).toBe("afternoon");
    expect(sessionAt("us", 15 * 60 + 59, "Tuesday")).toBe("regular");
    expect(sessionAt("us", 12 * 60, "Sunday")).toBe("weekend");
  });
});

describe("offline answers", () => {
  it("restate an analysis with its source and flag simulated data", async () => {
    const { composeAnswer } = await import("../../../worker/runtime/offline/answers");
    const text = composeAnswer(
      [
        {
          toolName: "analyze_stock",
          isError: false,
          output: {
            symbol: { id: "SIM.0001", name: "示例科技" },
            analysis: {
              asOf: "2026-06-30",
              phase: { name: "ACC_C", since: "2026-05-10" },
              tradingRange: { support: 10, resistance: 12, from: "2026-03-01", to: "2026-06-30" },
              events: [{ type: "Spring", date: "2026-05-10", price: 9.8 }],
              health: { score: 72, grade: "healthy" },
            },
            source: { source: "offline", asOf: "2026-06-30", simulated: true, stale: false },
          },
        },
      ],
      "zh",
    );
    expect(text).toContain("SIM.0001 示例科技");
    expect(text).toContain("吸筹 C 阶段（ACC_C，自 2026-05-10）");
    expect(text).toContain("Spring 2026-05-10 @ 9.80");
    expect(text).toContain("模拟数据");
    expect(text).toContain("离线规则模型");
  });
});

describe("trace redaction", () => {
  it("replaces credential values at any depth and keeps the rest", async () => {
    const { redactSecrets } = await import("../../../worker/lib/redact");
    const input = {
      args: { code: "600519", api_key: "sk-1", nested: [{ Authorization: "Bearer x", note: "ok" }] },
      headers: { cookie: "a=b", "x-auth-token": "t" },
      password: "p",
    };
    expect(redactSecrets(input)).toEqual({
      args: { code: "600519", api_key: "[redacted]", nested: [{ Authorization: "[redacted]", note: "ok" }] },
      headers: { cookie: "[redacted]", "x-auth-token": "[redacted]" },
      password: "[redacted]",
    });
  });

  it("keeps usage figures: keys that merely contain 'token' are not credentials", async () => {
    const { redactSecrets } = await import("../../../worker/lib/redact");
    const usage = {
      inputTokens: 1200,
      outputTokens: 340,
      totalTokens: 1540,
      reasoningTokens: 0,
      cachedInputTokens: 10,
    };
    expect(redactSecrets({ type: "usage", usage })).toEqual({ type: "usage", usage });
  });

  it("redacts secrets by value in free text, wherever they appear", async () => {
    const { redactSecrets } = await import("../../../worker/lib/redact");
    const key = "sk-proj-AbCdEf0123456789xyzXYZ";
    const out = JSON.stringify(
      redactSecrets({
        text: `my api_key is ${key}, keep it`,
        note: "use api_key=abc123def456&x=1 and curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_sig_sig_sig'",
        url: "https://alice:hunter2pass@db.example.com/x?token=t0k3n_value",
        spoken: "the password is correct-horse",
        ours: "wk_0123456789abcdefghjkmnpqrstvwxyz",
        args: [{ input: `{"query":"${key}"}` }],
        plain: "Volume rose 3x on 2024-06-03; token budget fine",
      }),
    );
    for (const secret of [
      key,
      "abc123def456",
      "eyJhbGciOiJIUzI1NiJ9",
      "hunter2pass",
      "t0k3n_value",
      "correct-horse",
      "wk_0123456789",
    ])
      expect(out, secret).not.toContain(secret);
    expect(out).toContain("alice:[redacted]@db.example.com");
    expect(out).toContain("Bearer [redacted]");
    expect(out).toContain("Volume rose 3x on 2024-06-03; token budget fine");
  });
});

describe("offline answers without a phase start", () => {
  it("leaves the start date out instead of printing a placeholder", async () => {
    const { composeAnswer } = await import("../../../worker/runtime/offline/answers");
    const text = composeAnswer(
      [
        {
          toolName: "analyze_stock",
          isError: false,
          output: { analysis: { asOf: "2026-06-30", phase: { name: "NONE", since: null } } },
        },
      ],
      "en",
    );
    expect(text).toContain("phase: no structure open (NONE), data as of 2026-06-30.");
    expect(text).not.toContain("since ?");
  });
});
