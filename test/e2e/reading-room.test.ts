/**
 * The reading room against the offline app (no model keys): the page loads from the worker, the
 * offline banner and example prompts show, an analysis tool card draws its chart with event
 * markers, the full-size analysis page, and managing sessions.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { openPage, shot, startChat } from "./helpers";

describe("reading room (offline model)", () => {
  let browser: Browser;
  const appUrl = inject("appUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("serves the page with the offline banner, live health and example prompts", async () => {
    const page = await openPage(browser, appUrl);
    await expect.poll(() => page.getByTestId("health").textContent()).toContain("offline-rules");
    expect(await page.getByTestId("offline-banner").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "analyze 399006", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "analyze AAPL", exact: true }).count()).toBe(0);
    expect(await page.title()).toContain("wyckoff-edge");
    await shot(page, "home-offline");
    // switch to Chinese and back
    await page.getByRole("button", { name: "中文" }).click();
    await expect.poll(() => page.getByTestId("composer").getAttribute("placeholder")).toContain("分析");
    await shot(page, "home-zh");
    // exact: a session titled "screen the market" has buttons whose names contain "en"
    await page.getByRole("button", { name: "EN", exact: true }).click();
    await page.getByTestId("offline-banner").getByRole("button", { name: "Dismiss" }).click();
    expect(await page.getByTestId("offline-banner").count()).toBe(0);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("falls back to the app for client-side routes and keeps /api 404s as JSON", async () => {
    const page = await openPage(browser, `${appUrl}/c/s_0000000000000000000000000a`);
    await expect.poll(() => page.locator("main").textContent()).toContain("This session does not exist");
    const api = await fetch(`${appUrl}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: "not_found" } });
    await page.close();
  });

  it("shows an analysis tool card with its chart, event markers and the offline answer", async () => {
    const page = await openPage(browser, appUrl);
    await startChat(page, "分析 SIM.0002");
    const card = page.locator('[data-testid="tool-card"][data-tool="analyze_stock"]');
    await expect.poll(() => card.getAttribute("data-phase")).toBe("done");
    const chart = card.getByTestId("chart");
    await expect.poll(() => chart.getAttribute("data-ready"), { timeout: 10_000 }).toBe("true");
    expect(Number(await chart.getAttribute("data-markers"))).toBeGreaterThan(3);
    expect(await chart.locator("canvas").count()).toBeGreaterThan(0);
    expect(await card.getByTestId("phase").textContent()).toBe("Markup");
    expect(await card.getByTestId("events-table").textContent()).toContain("Spring");
    await expect.poll(() => page.getByTestId("markdown").last().textContent()).toContain("离线规则模型");
    expect(await page.getByTestId("tasks-panel").textContent()).toContain("No background tasks");
    await expect.poll(() => page.getByTestId("send").isDisabled()).toBe(true); // empty composer
    await shot(page, "chat-analysis-offline");

    await card.getByRole("link", { name: /Open full chart/ }).click();
    await page.waitForURL(/\/analysis\/SIM\.0002$/);
    const full = page.getByTestId("chart");
    await expect.poll(() => full.getAttribute("data-ready"), { timeout: 10_000 }).toBe("true");
    expect(Number(await full.getAttribute("data-markers"))).toBeGreaterThan(3);
    await shot(page, "analysis-page");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("renames and deletes a session (after confirming)", async () => {
    const page = await openPage(browser, appUrl);
    const id = await startChat(page, "几点了 marker-sessions");
    const row = page.locator(`[data-session-id="${id}"]`);
    await row.getByRole("button", { name: /^Rename/ }).click();
    await row.getByRole("textbox").fill("Renamed by e2e");
    await row.getByRole("textbox").press("Enter");
    await expect.poll(() => page.getByTestId("session-list").textContent()).toContain("Renamed by e2e");
    const detail = (await (await fetch(`${appUrl}/api/sessions/${id}`)).json()) as { title: string };
    expect(detail.title).toBe("Renamed by e2e");

    const renamed = row;
    await renamed.getByRole("button", { name: /^Delete/ }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.textContent()).toContain("Renamed by e2e");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByTestId("session-list").textContent()).toContain("Renamed by e2e");
    await renamed.getByRole("button", { name: /^Delete/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(`${appUrl}/`);
    await expect.poll(() => page.getByTestId("session-list").textContent()).not.toContain("Renamed by e2e");
    expect((await fetch(`${appUrl}/api/sessions/${id}`)).status).toBe(404);
    await page.close();
  });
});
