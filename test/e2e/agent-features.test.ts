/**
 * The agent's newer features in Chromium against the scripted-model app: the composer's `/` skill menu,
 * the skills manager and scenario hints in settings (with the server's rejection reasons), the usage
 * view and the session cost, profiles chosen at creation and switched in the header, a sub-agent's
 * progress nested under its delegate card, a spilled result loaded on demand, and a loop-guard
 * warning drawn as a banner on top of the answer. Each test's message carries its own marker.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { lastAnswer, openPage, script, shot, startChat, turnSettled } from "./helpers";

interface SessionJson {
  profile: string | null;
}

describe("skills, profiles, sub-agents, spills and guards (scripted model)", () => {
  let browser: Browser;
  const appUrl = inject("scriptedAppUrl");
  const modelUrl = inject("modelUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function sessionProfile(id: string): Promise<string | null> {
    return ((await (await fetch(`${appUrl}/api/sessions/${id}`)).json()) as SessionJson).profile;
  }

  async function settings(page: Page): Promise<void> {
    await page.goto(`${appUrl}/settings`);
    await page.getByTestId("skills-manager").waitFor();
  }

  it("lists skills when / is typed: arrows move, Tab completes, Esc closes", async () => {
    const page = await openPage(browser, appUrl);
    const box = page.getByTestId("composer");
    await box.click();
    await box.pressSequentially("/");
    const menu = page.getByTestId("skill-menu");
    await menu.waitFor();
    await expect.poll(() => menu.getByTestId("skill-option").count()).toBeGreaterThanOrEqual(5);
    expect(await menu.textContent()).toContain("/checkup");
    expect(await box.getAttribute("aria-expanded")).toBe("true");
    await shot(page, "skill-menu");
    await box.pressSequentially("che");
    await expect.poll(() => menu.getByTestId("skill-option").first().textContent()).toContain("/checkup");
    await box.press("Tab");
    expect(await box.inputValue()).toBe("/checkup ");
    expect(await page.getByTestId("skill-menu").count()).toBe(0);
    // arrows wrap, Tab completes the highlighted one (Enter sends it: reading-room-2.test.ts)
    await box.fill("");
    await box.pressSequentially("/");
    await menu.waitFor();
    const names = await menu.getByTestId("skill-option").locator("code").allTextContents();
    await box.press("ArrowUp");
    expect(await menu.locator('[aria-selected="true"] code').textContent()).toBe(names.at(-1));
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    await box.press("Tab");
    expect(await box.inputValue()).toBe(`${names[1]} `);
    // Esc closes without changing the text
    await box.fill("");
    await box.pressSequentially("/rep");
    await menu.waitFor();
    await box.press("Escape");
    expect(await page.getByTestId("skill-menu").count()).toBe(0);
    expect(await box.inputValue()).toBe("/rep");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("creates, edits and deletes a skill, shows the server's reasons, and the composer lists it", async () => {
    const page = await openPage(browser, appUrl);
    await settings(page);
    const manager = page.getByTestId("skills-manager");
    const builtins = manager.locator('[data-testid="skill-row"][data-builtin="true"]');
    await expect.poll(() => builtins.count()).toBeGreaterThanOrEqual(5);
    expect(await builtins.first().getByRole("button", { name: "Edit" }).count()).toBe(0);

    await manager.getByTestId("skill-new").click();
    const editor = manager.getByTestId("skill-editor");
    const field = editor.getByTestId("skill-markdown");
    // malformed front matter → 400 with the reason
    await field.fill("name: nope\n\nno front matter");
    await editor.getByTestId("skill-save").click();
    await expect.poll(() => editor.getByTestId("skill-error").textContent()).toContain("front matter");
    // a built-in's name → 409 with the reason
    await field.fill("---\nname: checkup\ndescription: mine\n---\nDo {user_input}");
    await editor.getByTestId("skill-save").click();
    await expect.poll(() => editor.getByTestId("skill-error").textContent()).toContain("built-in");
    await field.fill("---\nname: e2e-scan\ndescription: Scan small caps my way\n---\nScan {user_input} for springs.");
    await editor.getByTestId("skill-save").click();
    const mine = manager.locator('[data-skill="e2e-scan"]');
    await mine.waitFor();
    expect(await mine.textContent()).toContain("Scan small caps my way");
    await shot(page, "settings-skills");

    // edit: the description changes
    await mine.getByRole("button", { name: "Edit" }).click();
    await mine
      .getByTestId("skill-markdown")
      .fill("---\nname: e2e-scan\ndescription: Scan mid caps now\n---\nScan {user_input}.");
    await mine.getByTestId("skill-save").click();
    await expect.poll(() => mine.textContent()).toContain("Scan mid caps now");

    // the composer's menu lists it
    await page.goto(appUrl);
    const box = page.getByTestId("composer");
    await box.click();
    await box.pressSequentially("/e2e");
    await expect.poll(() => page.getByTestId("skill-menu").textContent()).toContain("Scan mid caps now");

    // delete after confirming
    await settings(page);
    await page.locator('[data-skill="e2e-scan"]').getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.locator('[data-skill="e2e-scan"]').count()).toBe(0);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("adds, edits and deletes a scenario hint; shipped hints stay read-only", async () => {
    const page = await openPage(browser, appUrl);
    await settings(page);
    const hints = page.getByTestId("hints-manager");
    await hints.getByTestId("hint-editor").waitFor();
    const shipped = hints.locator('[data-testid="hint-row"][data-builtin="true"]');
    if ((await shipped.count()) > 0) expect(await shipped.first().getByRole("button").count()).toBe(0);
    const add = hints.getByTestId("hint-editor").last();
    await add.getByTestId("hint-keywords").fill("e2e-spring, 弹簧");
    await add.getByTestId("hint-text").fill("Check the test volume after a spring.");
    await add.getByTestId("hint-save").click();
    const rowTexts = () => hints.getByTestId("hint-row").allTextContents();
    await expect.poll(() => rowTexts()).toContainEqual(expect.stringContaining("Check the test volume"));
    const id = await hints
      .locator('[data-testid="hint-row"]', { hasText: "Check the test volume" })
      .getAttribute("data-hint");
    const row = hints.locator(`[data-hint="${id}"]`);
    expect(await row.textContent()).toContain("e2e-spring");
    expect(await row.textContent()).toContain("弹簧");
    await row.getByRole("button", { name: "Edit" }).click();
    await row.getByTestId("hint-text").fill("Check the volume on the test.");
    await row.getByTestId("hint-save").click();
    await expect.poll(() => row.locator(".hint-text").textContent()).toBe("Check the volume on the test.");
    await shot(page, "settings-hints");
    await row.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => row.count()).toBe(0);
    await page.close();
  });

  it("creates a session with a profile, shows it in the header and switches it", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-profile", [{ text: "Profiled answer." }, { text: "Second answer." }]);
    await page.getByTestId("profile-domain").selectOption("us-equity");
    await page.getByTestId("profile-capability").selectOption("analysis");
    const id = await startChat(page, "what profile mk-profile");
    await expect.poll(() => lastAnswer(page)).toContain("Profiled answer.");
    expect(await sessionProfile(id)).toBe("us-equity:analysis");
    const badge = page.getByTestId("session-profile");
    expect(await badge.textContent()).toContain("US equities · Analysis");
    // the cost of the priced scripted model shows next to the tokens
    await expect.poll(() => page.getByTestId("session-cost").textContent()).toMatch(/cost \$0\.\d+/);
    await badge.click();
    await page.getByTestId("profile-domain").selectOption("");
    await page.getByTestId("profile-capability").selectOption("deep-dive");
    await shot(page, "profile-switch");
    await page.getByTestId("profile-apply").click();
    await expect.poll(() => badge.getAttribute("data-profile")).toBe("deep-dive");
    expect(await sessionProfile(id)).toBe("deep-dive");
    // the finished turn's figures stay (stored totals catch up; they never drop back to 0)
    expect(await page.getByTestId("status-line").textContent()).toMatch(/Usage: [1-9]/);
    expect(await page.getByTestId("session-cost").count()).toBe(1);
    await badge.click();
    await page.getByRole("button", { name: "Reset to default" }).click();
    await expect.poll(() => badge.textContent()).toContain("default");
    expect(await sessionProfile(id)).toBeNull();
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("shows usage and cost per day and model in settings", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-usage", [{ text: "Counted." }]);
    await startChat(page, "count me mk-usage");
    await expect.poll(() => lastAnswer(page)).toContain("Counted.");
    await page.goto(`${appUrl}/settings`);
    const usage = page.getByTestId("usage-summary");
    await expect.poll(() => usage.textContent()).toContain("scripted");
    expect(await usage.getByTestId("usage-totals").textContent()).toMatch(/\$0\.\d+/);
    await shot(page, "settings-usage");
    await page.close();
  });

  it("nests a sub-agent's progress and tool calls under its delegate card", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-sub", [
      { toolCalls: [{ name: "delegate_to_research", arguments: { task: "find SIM.0002 mk-sub" } }] },
      {
        toolCalls: [
          { name: "search_stock_by_name", arguments: { keyword: "SIM.0002" } },
          { name: "get_time", arguments: { market: "cn" } },
        ],
      },
      { text: "SIM.0002 is a simulated A-share." },
      { text: "The research sub-agent reports back." },
    ]);
    await startChat(page, "delegate this mk-sub");
    await expect.poll(() => lastAnswer(page)).toContain("reports back");
    const delegate = page.locator('[data-testid="tool-card"][data-tool="delegate_to_research"]');
    await expect.poll(() => delegate.getAttribute("data-phase")).toBe("done");
    const sub = delegate.getByTestId("subagent");
    expect(await sub.getAttribute("data-status")).toBe("done");
    expect(await sub.textContent()).toContain("Research sub-agent");
    expect(await sub.textContent()).toContain("find SIM.0002 mk-sub");
    expect(await sub.getByTestId("subagent-text").textContent()).toContain("SIM.0002 is a simulated A-share.");
    const nested = sub.locator('[data-testid="tool-card"][data-tool="search_stock_by_name"]');
    expect(await nested.getAttribute("data-subagent")).toBe("research");
    expect(await nested.getAttribute("data-phase")).toBe("done");
    expect(await nested.getByTestId("agent-chip").textContent()).toContain("Research");
    // a tool outside the sub-agent's subset is refused, and shown under it as such
    const refused = sub.locator('[data-testid="tool-card"][data-tool="get_time"]');
    expect(await refused.getAttribute("data-phase")).toBe("error");
    expect(await refused.textContent()).toContain("not available to the research sub-agent");
    // not also drawn at the top level
    expect(await page.locator('[data-testid="tool-card"][data-tool="search_stock_by_name"]').count()).toBe(1);
    await delegate.scrollIntoViewIfNeeded();
    await shot(page, "subagent-card");
    // a reload draws the stored message the same way
    await page.reload();
    const again = page.locator('[data-testid="tool-card"][data-tool="delegate_to_research"]');
    await expect
      .poll(() => again.locator('[data-testid="tool-card"][data-tool="search_stock_by_name"]').count())
      .toBe(1);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("shows a spilled result's preview and index, and loads the whole result on demand", async () => {
    const page = await openPage(browser, appUrl);
    const rows = Array.from({ length: 700 }, (_, i) => `row-${String(i).padStart(3, "0")} ${"x".repeat(90)}`);
    await script(modelUrl, "mk-spill", [
      { toolCalls: [{ name: "delegate_to_research", arguments: { task: "list every row mk-spill" } }] },
      { text: `${rows.join("\n")}\nLAST-ROW-MARKER`, chunkSize: 8000 },
      { text: "The rows are in." },
    ]);
    await startChat(page, "spill it mk-spill");
    await expect.poll(() => lastAnswer(page), { timeout: 20_000 }).toContain("The rows are in.");
    const card = page.locator('[data-testid="tool-card"][data-tool="delegate_to_research"]');
    const spilled = card.getByTestId("spilled-result");
    await spilled.waitFor();
    expect(await spilled.textContent()).toMatch(/Large result \([\d,]+ characters\)/);
    expect(await spilled.getByTestId("spill-preview").textContent()).toContain("row-000");
    expect(await spilled.getByTestId("spill-preview").textContent()).not.toContain("LAST-ROW-MARKER");
    await spilled.getByTestId("spill-load").scrollIntoViewIfNeeded();
    await shot(page, "spill-preview");
    await spilled.getByTestId("spill-load").click();
    const full = spilled.getByTestId("spill-full");
    await full.waitFor();
    expect(await full.textContent()).toContain("LAST-ROW-MARKER");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("draws a loop-guard warning as a banner at the top of the answer", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-guard", [
      { text: "It looks fine to me." },
      { text: "Still fine, no data needed." },
      { text: "Fine, trust me." },
    ]);
    await startChat(page, "分析 SIM.0002 的阶段 mk-guard");
    const answer = page.getByTestId("assistant-message").last();
    const banner = answer.getByTestId("guard-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toContain("analyze_stock");
    // the banner comes first, and its words are not repeated in the text below
    expect(await answer.locator(":scope > *").first().getAttribute("data-testid")).toBe("guard-banner");
    await turnSettled(page);
    expect((await answer.innerText()).split("⚠️").length - 1).toBe(1);
    expect(await answer.getByTestId("inline-note").first().textContent()).toContain("asked the model again");
    await shot(page, "guard-banner");
    await page.close();
  });

  it("shows a finished background task reported into the session as a system notice, not the person's message", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-notify", [
      { toolCalls: [{ name: "screen_stocks", arguments: { board: "chinext" } }] },
      { text: "Screening started." },
      { text: "The screening is done: see the notice." },
    ]);
    const id = await startChat(page, "screen chinext mk-notify");
    await expect.poll(() => lastAnswer(page)).toContain("Screening started.");
    // the task finishes in the background and starts its own turn; a reload shows it
    await expect
      .poll(
        async () => {
          const body = (await (await fetch(`${appUrl}/api/sessions/${id}`)).json()) as {
            messages: { role: string; metadata?: { kind?: string; status?: string } }[];
          };
          const at = body.messages.findIndex((m) => m.metadata?.kind === "notification");
          const last = body.messages.at(-1);
          return at >= 0 && body.messages.length > at + 1 && last?.metadata?.status === "done";
        },
        { timeout: 45_000, interval: 500 },
      )
      .toBe(true);
    await page.reload();
    const notice = page.getByTestId("system-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("System notice");
    expect(await page.getByTestId("user-message").count()).toBe(1);
    const answer = page.getByTestId("assistant-message").last();
    expect(await answer.textContent()).toContain("The screening is done");
    expect(await answer.locator('[data-note="notification"]').textContent()).toMatch(/Background task \S+ finished/);
    await shot(page, "notification-notice");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
