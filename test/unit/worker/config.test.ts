import { describe, expect, it } from "vitest";
import { loadConfig, OFFLINE_MODEL_ID } from "../../../worker/config";
import { AppError } from "../../../worker/lib/app-error";

describe("loadConfig", () => {
  it("defaults to the offline model, offline market data and local auth", () => {
    const config = loadConfig({});
    expect(config.model).toBeUndefined();
    expect(config.marketData).toBe("offline");
    expect(config.authMode).toBe("local");
    expect(config.providers.eastmoney).toBe("https://push2his.eastmoney.com");
    expect(OFFLINE_MODEL_ID).toBe("offline-rules");
  });

  it("treats empty strings as unset, as .dev.vars.example leaves them", () => {
    const config = loadConfig({ LLM_BASE_URL: "", LLM_MODEL: "", MARKET_DATA: "", LLM_CONTEXT_WINDOW: "" });
    expect(config.model).toBeUndefined();
    expect(config.marketData).toBe("offline");
    expect(config.contextWindowOverride).toBeUndefined();
  });

  it("builds model endpoints and strips trailing slashes from provider URLs", () => {
    const config = loadConfig({
      LLM_BASE_URL: "http://127.0.0.1:9/v1",
      LLM_MODEL: "deepseek-chat",
      LLM_API_KEY: "k",
      LLM_FALLBACK_BASE_URL: "http://127.0.0.1:10/v1",
      LLM_CONTEXT_WINDOW: "32768",
      YAHOO_BASE_URL: "http://127.0.0.1:11/",
    });
    expect(config.model).toEqual({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "deepseek-chat" });
    expect(config.fallbackModel?.baseURL).toBe("http://127.0.0.1:10/v1");
    expect(config.contextWindowOverride).toBe(32768);
    expect(config.providers.yahoo).toBe("http://127.0.0.1:11");
  });

  it("names an invalid setting without echoing its value", () => {
    try {
      loadConfig({ MARKET_DATA: "sometimes", LLM_API_KEY: "secret-value", LLM_BASE_URL: "not a url" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const message = (error as AppError).message;
      expect(message).toContain("MARKET_DATA");
      expect(message).toContain("LLM_BASE_URL");
      expect(message).not.toContain("sometimes");
    }
  });
});
