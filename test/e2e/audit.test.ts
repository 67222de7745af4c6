/**
 * The audit trail as a person and a third party meet it: a turn with a tool call and an approval in
 * the reading room (scripted model), the chain's head shown beside the title, then the exported chain
 * and session checked by `npm run audit:verify`'s script exactly as documented.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { openPage, script, shot, startChat } from "./helpers";

const root = path.resolve(import.meta.dirname, "../..");

describe("audit trail (scripted model)", () => {
  let browser: Browser;
  const appUrl = inject("scriptedAppUrl");
  const modelUrl = inject("modelUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the chain's head and exports a chain the verifier accepts", { timeout: 120_000 }, async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-audit", [
      { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] },
      { toolCalls: [{ name: "rename_session", arguments: { title: "Audited mk-audit" } }] },
      { text: "Renamed after checking the clock." },
    ]);
    const sessionId = await startChat(page, "check the clock then rename mk-audit");
    const dialog = page.getByTestId("approval-dialog");
    await dialog.waitFor();
    await dialog
      .getByRole("button", { name: /allow once|^allow$/i })
      .first()
      .click();
    const badge = page.getByTestId("audit-badge");
    await badge.waitFor();
    await expect.poll(() => badge.innerText()).toMatch(/Audit chain · (signed|unsigned)/);
    await shot(page, "audit-badge");

    const exported = await (await fetch(`${appUrl}/api/sessions/${sessionId}/audit`)).text();
    const session = await (await fetch(`${appUrl}/api/sessions/${sessionId}`)).json();
    const entries = exported
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { hash: string; tools: { name: string; approval: { decision: string } | null }[] });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.tools.map((t) => t.name)).toEqual(["get_time", "rename_session"]);
    expect(entries[0]?.tools[1]?.approval?.decision).toBe("allow");
    expect(await page.getByTestId("audit-head").innerText()).toBe(
      `${entries[0]?.hash.slice(0, 8)}…${entries[0]?.hash.slice(-4)}`,
    );

    const dir = mkdtempSync(path.join(tmpdir(), "e2e-audit-"));
    writeFileSync(path.join(dir, "audit.jsonl"), exported);
    writeFileSync(path.join(dir, "session.json"), JSON.stringify(session));
    const out = execFileSync(
      process.execPath,
      [
        path.join(root, "scripts/audit-verify.mjs"),
        path.join(dir, "audit.jsonl"),
        "--messages",
        path.join(dir, "session.json"),
      ],
      { encoding: "utf8" },
    );
    expect(out).toContain("OK: 1 entries");
    expect(out).toContain("2 tool results match the export");
  });
});
