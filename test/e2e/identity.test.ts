/**
 * Share links and the portfolio in Chromium: a shared link renders the session read-only (banner,
 * tool card with its chart, no composer, no sidebar) and stops working the moment it is revoked;
 * the portfolio page edits through a confirmation, imports CSV, and the agent's update_portfolio
 * writes only after the person allows it in the approval dialog.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { lastAnswer, openPage, script, shot, startChat } from "./helpers";

interface PortfolioJson {
  portfolio: { positions: { code: string; shares: number; cost: number }[] };
}

async function positions(appUrl: string): Promise<string[]> {
  const body = (await (await fetch(`${appUrl}/api/portfolio`)).json()) as PortfolioJson;
  return body.portfolio.positions.map((p) => p.code);
}

describe("share links and portfolio", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders a shared session read-only with its tool card and chart, and stops the moment it is revoked", async () => {
    const appUrl = inject("appUrl");
    const owner = await openPage(browser, appUrl);
    await startChat(owner, "分析 SIM.0003");
    const card = owner.locator('[data-testid="tool-card"][data-tool="analyze_stock"]');
    await expect.poll(() => card.getAttribute("data-phase")).toBe("done");

    await owner.getByTestId("share-button").click();
    await owner.getByTestId("share-create").click();
    const url = await owner.getByTestId("share-url").inputValue();
    expect(url).toMatch(/\/s\/shr_[0-9a-z]{52}$/);
    await shot(owner, "share-dialog");

    const viewer = await openPage(browser, url);
    await expect.poll(() => viewer.getByTestId("shared-banner").textContent()).toContain("Shared, read-only");
    const shared = viewer.locator('[data-testid="tool-card"][data-tool="analyze_stock"]');
    await expect.poll(() => shared.getAttribute("data-phase")).toBe("done");
    const chart = shared.getByTestId("chart");
    await expect.poll(() => chart.getAttribute("data-ready"), { timeout: 10_000 }).toBe("true");
    expect(await viewer.getByTestId("user-message").first().textContent()).toContain("分析 SIM.0003");
    // Nothing to write with: no composer, no session list, no approvals, no account links.
    expect(await viewer.getByTestId("composer").count()).toBe(0);
    expect(await viewer.getByTestId("session-list").count()).toBe(0);
    expect(await viewer.getByTestId("share-button").count()).toBe(0);
    expect(await viewer.getByRole("button", { name: /Allow|Review/ }).count()).toBe(0);
    await shot(viewer, "share-page");

    await owner.getByTestId("share-revoke").click();
    await owner.getByTestId("share-revoked").waitFor();
    expect((await fetch(`${appUrl}/api/shares/${url.split("/s/")[1]}`)).status).toBe(404);
    await viewer.reload();
    await viewer.getByTestId("share-gone").waitFor();
    expect(await viewer.getByTestId("tool-card").count()).toBe(0);
    await shot(viewer, "share-revoked");
    expect(owner.errors).toEqual([]);
    expect(viewer.errors).toEqual([]);
    await owner.close();
    await viewer.close();
  }, 60_000);

  it("edits the portfolio only after confirming, names a bad field, and imports CSV", async () => {
    const appUrl = inject("scriptedAppUrl");
    const page = await openPage(browser, `${appUrl}/portfolio`);
    await page.getByTestId("portfolio-page").waitFor();
    const form = page.getByTestId("change-form");
    await form.locator('input[name="code"]').fill("SIM.0001");
    await form.locator('input[name="cost"]').fill("10");
    await form.getByRole("button", { name: "Preview and confirm" }).click();
    await expect.poll(() => page.getByTestId("portfolio-error").textContent()).toContain("shares");

    await form.locator('input[name="shares"]').fill("100");
    await form.getByRole("button", { name: "Preview and confirm" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("SIM.0001");
    expect(await positions(appUrl)).not.toContain("SIM.0001"); // a preview writes nothing
    await shot(page, "portfolio-confirm");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.locator('[data-code="SIM.0001"]').waitFor();
    expect(await positions(appUrl)).toContain("SIM.0001");

    await page.getByTestId("csv-text").fill("code,shares,cost,stop\nSIM.0004,20,7.5,6.9\n");
    await page.getByRole("button", { name: "Preview import" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
    await page.locator('[data-code="SIM.0004"]').waitFor();
    expect(await page.locator('[data-code="SIM.0004"]').textContent()).toContain("6.9");
    await shot(page, "portfolio-page");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("lets the agent change the portfolio only after the person allows it", async () => {
    const appUrl = inject("scriptedAppUrl");
    const modelUrl = inject("modelUrl");
    const marker = "mk-portfolio";
    await script(modelUrl, marker, [
      {
        toolCalls: [{ name: "update_portfolio", arguments: { action: "add", code: "SIM.0002", shares: 50, cost: 20 } }],
      },
      { text: "Added SIM.0002 to your portfolio." },
    ]);
    const page = await openPage(browser, appUrl);
    await startChat(page, `buy 50 SIM.0002 at 20 ${marker}`);
    const dialog = page.getByTestId("approval-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Update portfolio");
    expect(await positions(appUrl)).not.toContain("SIM.0002");
    await shot(page, "portfolio-approval");
    await dialog.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => lastAnswer(page)).toContain("Added SIM.0002");
    expect(await positions(appUrl)).toContain("SIM.0002");

    await page.getByRole("link", { name: "Portfolio", exact: true }).click();
    await page.locator('[data-code="SIM.0002"]').waitFor();
    expect(page.errors).toEqual([]);
    await page.close();
  });
});
