/**
 * `web_fetch` through the real fetch adapter with a scripted `fetch` (no network): redirects followed
 * by hand and each hop re-checked, the 1 MB cap (declared and streamed), the content-type allow list,
 * HTML reduced to text with 8,000 characters to the model and the rest saved to the workspace.
 */
import { describe, expect, it } from "vitest";
import { FetchWebClient } from "../../../worker/http/fetch-web-client";
import { htmlToText } from "../../../worker/lib/html-text";
import type { Workspace } from "../../../worker/ports/workspace";
import { webFetchHandler } from "../../../worker/tools/handlers/web-fetch";
import { fakeToolDeps } from "../../support/runtime-harness";

type Route = (url: string) => Response;

function memoryWorkspace(): Workspace & { saved: Map<string, string> } {
  const saved = new Map<string, string>();
  return {
    saved,
    get: async () => null,
    put: async (_u, path, bytes) => {
      saved.set(path, new TextDecoder().decode(bytes));
      return { path, size: bytes.byteLength, updatedAt: "2026-01-01T00:00:00.000Z" };
    },
    list: async () => ({ files: [], truncated: false }),
  };
}

function run(url: string, route: Route, allow: string[] = []) {
  const requested: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    expect(init?.redirect).toBe("manual");
    const u = String(input);
    requested.push(u);
    return route(u);
  }) as typeof fetch;
  const files = memoryWorkspace();
  const deps = fakeToolDeps({ web: new FetchWebClient({ fetch: fetchImpl, testOnlyAllowHosts: allow }), files });
  const ctx = { sessionId: "s", userId: "u", toolCallId: "c", signal: new AbortController().signal };
  return { result: webFetchHandler({ url }, deps, ctx), requested, files };
}

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });

describe("web_fetch", () => {
  it("reads a public page as text, with its title", async () => {
    const { result } = run("https://example.com/a", () =>
      html(
        "<html><head><title>Q3 &amp; outlook</title><style>p{}</style></head><body><h1>Hi</h1><p>Volume <b>rose</b>.</p><script>x()</script></body></html>",
      ),
    );
    const r = await result;
    expect(r).toMatchObject({
      ok: true,
      value: { title: "Q3 & outlook", text: "Hi\n\nVolume rose.", truncated: false, status: 200 },
    });
  });

  it("never touches the network for refused destinations, the first hop included", async () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://10.0.0.1/",
      "http://[::1]/",
      "http://169.254.169.254/",
      "http://2130706433/",
    ]) {
      const { result, requested } = run(url, () => html("secret"));
      const r = await result;
      expect(r.ok, url).toBe(false);
      if (!r.ok) expect(r.error.code, url).toBe("forbidden");
      expect(requested, url).toEqual([]);
    }
    const file = await run("file:///etc/passwd", () => html("x")).result;
    expect(file.ok ? "" : file.error.code).toBe("invalid_input");
  });

  it("re-checks every redirect hop: a redirect to a private address is refused before it is requested", async () => {
    const { result, requested } = run("https://example.com/go", (u) =>
      u.endsWith("/go")
        ? new Response(null, { status: 302, headers: { location: "http://10.0.0.1/admin" } })
        : html("secret"),
    );
    const r = await result;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: "forbidden" });
    expect(requested).toEqual(["https://example.com/go"]);
  });

  it("follows public redirects (relative too) and stops after five", async () => {
    const ok = await run("https://example.com/1", (u) =>
      u.endsWith("/1") ? new Response(null, { status: 301, headers: { location: "/2" } }) : html("<p>there</p>"),
    ).result;
    expect(ok).toMatchObject({ ok: true, value: { finalUrl: "https://example.com/2", text: "there" } });
    const loop = await run(
      "https://example.com/x",
      () => new Response(null, { status: 302, headers: { location: "/x" } }),
    ).result;
    expect(loop.ok ? "" : loop.error.message).toMatch(/more than 5 redirects/);
  });

  it("refuses bodies over 1 MB, declared or streamed", async () => {
    const big = "a".repeat(1024 * 1024 + 10);
    const streamed = await run(
      "https://example.com/big",
      () => new Response(big, { headers: { "content-type": "text/plain" } }),
    ).result;
    expect(streamed.ok ? "" : streamed.error.code).toBe("payload_too_large");
    const declared = await run(
      "https://example.com/big",
      () =>
        new Response("short", { headers: { "content-type": "text/plain", "content-length": String(5 * 1024 * 1024) } }),
    ).result;
    expect(declared.ok ? "" : declared.error.code).toBe("payload_too_large");
  });

  it("refuses content types outside the allow list", async () => {
    const r = await run(
      "https://example.com/x.pdf",
      () => new Response("%PDF", { headers: { "content-type": "application/pdf" } }),
    ).result;
    expect(r.ok ? "" : r.error.message).toMatch(/application\/pdf is not readable text/);
  });

  it("hands the model 8,000 characters and saves the whole text to the workspace", async () => {
    const { result, files } = run("https://news.example.com/long", () => html(`<p>${"字".repeat(20_000)}</p>`));
    const r = await result;
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.truncated).toBe(true);
    expect(r.value.totalChars).toBe(20_000);
    expect(r.value.text.startsWith("字".repeat(8000))).toBe(true);
    expect(r.value.text).toMatch(/truncated: 12000 more characters in web\/news\.example\.com-/);
    expect(files.saved.get(r.value.savedTo ?? "")).toHaveLength(20_000);
  });

  it("reports HTTP errors as tool errors", async () => {
    const r = await run(
      "https://example.com/missing",
      () => new Response("no", { status: 404, headers: { "content-type": "text/plain" } }),
    ).result;
    expect(r.ok ? "" : r.error.code).toBe("not_found");
  });
});

describe("htmlToText", () => {
  it("bullets list items, keeps one blank line between blocks, drops comments and decodes entities", () => {
    expect(htmlToText("<ul><li>A&nbsp;1</li><li>B &#x4e2d;</li></ul><!-- x --><p>&lt;ok&gt;</p>")).toBe(
      "• A 1\n• B 中\n\n<ok>",
    );
  });
});

describe("web_fetch with name resolution (local mode)", () => {
  const signal = new AbortController().signal;
  const opts = { maxBytes: 1000, timeoutMs: 1000, signal };
  function client(addresses: Record<string, string[]>) {
    const requested: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      requested.push(String(input));
      return new Response("hi", { headers: { "content-type": "text/plain" } });
    }) as typeof fetch;
    const resolver = {
      resolve: async (host: string) => {
        const a = addresses[host];
        return a
          ? ({ ok: true, value: a } as const)
          : ({ ok: false, error: { code: "upstream_unavailable", message: "offline" } } as const);
      },
    };
    return { web: new FetchWebClient({ fetch: fetchImpl, resolver }), requested };
  }

  it("refuses a name that resolves to loopback or a private address, before any request", async () => {
    const { web, requested } = client({
      "evil.example": ["93.184.216.34", "127.0.0.1"],
      "lan.example": ["192.168.1.5"],
    });
    for (const url of ["http://evil.example/", "http://lan.example/x"]) {
      const r = await web.fetchOnce(url, opts);
      expect(r.ok ? "ok" : r.error.code, url).toBe("forbidden");
    }
    expect(requested).toEqual([]);
  });

  it("refuses a name it cannot resolve (fails closed) and fetches a public one", async () => {
    const { web, requested } = client({ "example.com": ["93.184.216.34"] });
    const unknown = await web.fetchOnce("http://unresolvable.example/", opts);
    expect(unknown.ok ? "ok" : unknown.error.code).toBe("forbidden");
    const fine = await web.fetchOnce("http://example.com/", opts);
    expect(fine.ok).toBe(true);
    expect(requested).toEqual(["http://example.com/"]);
  });
});
