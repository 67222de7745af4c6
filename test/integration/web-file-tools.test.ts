/**
 * The edge's web and file tools inside workerd: `web_fetch` runs through the real fetch adapter
 * against the fake upstream (a test-only allow-list) and is refused the production way everywhere
 * else; the file tools work in a scripted conversation (write after approval, read, list, traversal
 * refused).
 */
import { describe, expect, it } from "vitest";
import { FetchWebClient } from "../../worker/http/fetch-web-client";
import { R2Workspace } from "../../worker/storage/r2-workspace";
import { webFetchHandler } from "../../worker/tools/handlers/web-fetch";
import { fakeToolDeps } from "../support/runtime-harness";
import { testEnv } from "./test-env";
import { call, chunksOf, newSession, parseFrames, postJson, script } from "./turn-helpers";
import { fixtures, upstream } from "./market-helpers";
const upstreamHost = new URL(upstream).host;
describe("web_fetch at the edge", () => {
  const ctx = { sessionId: "s", userId: "web-user", toolCallId: "c", signal: new AbortController().signal };
  const production = () => fakeToolDeps({ web: new FetchWebClient({ fetch }), files: new R2Workspace(testEnv.SPILLS) });
  const testOnly = () =>
    fakeToolDeps({
      web: new FetchWebClient({ fetch, testOnlyAllowHosts: [upstreamHost] }),
      files: new R2Workspace(testEnv.SPILLS),
    });

  it("refuses loopback, private, link-local, file: and the fake upstream itself with the production policy", async () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://10.0.0.1/",
      "http://[::1]/",
      "http://169.254.169.254/",
      "file:///",
      `${upstream}/page`,
    ]) {
      const r = await webFetchHandler({ url }, production(), ctx);
      expect(r.ok, url).toBe(false);
      if (!r.ok) expect(["forbidden", "invalid_input"], url).toContain(r.error.code);
    }
  });

  it("reads a page through the real fetch, refuses a redirect to a private address and an oversized body", async () => {
    await fixtures(
      {
        path: "/web/page",
        contentType: "text/html; charset=utf-8",
        body: "<title>Note</title><p>Spring &amp; test</p>",
      },
      { path: "/web/hop", status: 302, contentType: "text/plain", headers: { location: "/web/page" }, body: "" },
      {
        path: "/web/evil",
        status: 302,
        contentType: "text/plain",
        headers: { location: "http://10.0.0.1/admin" },
        body: "",
      },
      { path: "/web/big", contentType: "text/plain", body: "x".repeat(1024 * 1024 + 100) },
    );
    const page = await webFetchHandler({ url: `${upstream}/web/hop` }, testOnly(), ctx);
    expect(page).toMatchObject({
      ok: true,
      value: { title: "Note", text: "Spring & test", finalUrl: `${upstream}/web/page` },
    });
    const evil = await webFetchHandler({ url: `${upstream}/web/evil` }, testOnly(), ctx);
    expect(evil.ok ? "" : evil.error.code).toBe("forbidden");
    const big = await webFetchHandler({ url: `${upstream}/web/big` }, testOnly(), ctx);
    expect(big.ok ? "" : big.error.code).toBe("payload_too_large");
  });
});

describe("web and file tools in a scripted conversation", () => {
  it("web_fetch refused on loopback; write_file after approval; read_file and list_files; traversal refused", async () => {
    const id = await newSession();
    const key = `files-${id}`;
    await script(key, [
      {
        toolCalls: [
          { name: "web_fetch", arguments: { url: `${upstream}/web/page` } },
          { name: "read_file", arguments: { path: "../other-user/secret.md" } },
          { name: "list_files", arguments: { folder: "/etc" } },
        ],
      },
      {
        toolCalls: [
          { name: "write_file", arguments: { path: "notes/watch.csv", content: "code,name\nSIM.0001,Sim One\n" } },
        ],
      },
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "notes/watch.csv" } },
          { name: "list_files", arguments: {} },
        ],
      },
      { text: "Saved and read back." },
    ]);
    const res = await postJson(`/api/sessions/${id}/messages`, { text: `save my watchlist ${key}` });
    const frames = parseFrames(await res.text());
    const request = chunksOf(frames).find((c) => c.type === "tool-approval-request") as
      | { approvalId: string }
      | undefined;
    expect(request).toBeDefined();
    expect(
      (await postJson(`/api/sessions/${id}/approvals/${request?.approvalId ?? ""}`, { decision: "allow" })).status,
    ).toBe(200);
    const rest = parseFrames(
      await (await call(`/api/sessions/${id}/stream?from=${(frames.at(-1)?.id ?? 0) + 1}`)).text(),
    );
    const chunks = chunksOf([...frames, ...rest]);
    const errors = chunks.filter((c) => c.type === "tool-output-error") as { errorText: string }[];
    expect(errors.map((e) => e.errorText.split(":")[0]).sort()).toEqual([
      "forbidden",
      "invalid_input",
      "invalid_input",
    ]);
    expect(errors.find((e) => e.errorText.startsWith("forbidden"))?.errorText).toMatch(/loopback/);
    const outputs = chunks.filter((c) => c.type === "tool-output-available") as { output: Record<string, unknown> }[];
    expect(outputs[0]?.output).toMatchObject({ path: "notes/watch.csv", replaced: false });
    // read_file and list_files are concurrency-safe: they ran together, in either order.
    const later = outputs.slice(1).map((o) => o.output);
    expect(later.find((o) => "kind" in o)).toMatchObject({
      kind: "csv",
      rows: [
        ["code", "name"],
        ["SIM.0001", "Sim One"],
      ],
      totalRows: 2,
    });
    expect(later.find((o) => "files" in o)).toMatchObject({ files: [{ path: "notes/watch.csv" }] });
    // Stored under the owner's prefix in R2.
    expect(await testEnv.SPILLS.head("workspace/local/notes/watch.csv")).not.toBeNull();
  });
});
