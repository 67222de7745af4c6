/** The address policy for users' own model endpoints: web_fetch's rules, plus loopback in local mode. */
import { describe, expect, it } from "vitest";
import { checkModelBaseUrl } from "../../../worker/http/model-endpoint-policy";

describe("checkModelBaseUrl", () => {
  it("accepts public http(s) hosts and trims trailing slashes", () => {
    expect(checkModelBaseUrl("https://api.deepseek.com/v1/", "token")).toEqual({
      ok: true,
      value: "https://api.deepseek.com/v1",
    });
    expect(checkModelBaseUrl("https://api.anthropic.com/v1", "access").ok).toBe(true);
  });

  it("allows loopback and localhost only in local mode", () => {
    expect(checkModelBaseUrl("http://127.0.0.1:8788/v1", "local").ok).toBe(true);
    expect(checkModelBaseUrl("http://localhost:11434/v1", "local").ok).toBe(true);
    for (const mode of ["token", "access"] as const) {
      const refused = checkModelBaseUrl("http://127.0.0.1:8788/v1", mode);
      expect(refused).toMatchObject({ ok: false, error: { code: "invalid_input" } });
      expect(!refused.ok && refused.error.message).toBe(
        "baseURL: 127.0.0.1 is a loopback address; a model endpoint must be a public host",
      );
      expect(checkModelBaseUrl("http://localhost:11434/v1", mode).ok).toBe(false);
    }
  });

  it("refuses private, link-local and odd spellings of them in every mode, and URLs with credentials or queries", () => {
    for (const url of [
      "http://10.1.2.3/v1",
      "http://192.168.0.10/v1",
      "http://169.254.169.254/latest/meta-data",
      "http://0x7f.1/v1",
      "http://2130706433/v1",
      "http://[::ffff:10.0.0.1]/v1",
      "http://router.internal/v1",
      "ftp://example.com/v1",
      "https://u:p@example.com/v1",
      "https://example.com/v1?key=abc",
      "not a url",
    ]) {
      expect(checkModelBaseUrl(url, "token").ok, url).toBe(false);
    }
    expect(checkModelBaseUrl("http://10.1.2.3/v1", "local").ok).toBe(false);
    const named = checkModelBaseUrl("http://10.1.2.3/v1", "local", "fallback.baseURL");
    expect(!named.ok && named.error.message).toBe(
      "fallback.baseURL: 10.1.2.3 is a private address; a model endpoint must be a public host (or loopback)",
    );
  });
});
