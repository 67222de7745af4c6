/** The reading room as a person opens it: the page loads from the worker and shows live health. */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";

describe("reading room", () => {
  let browser: Browser;
  const appUrl = inject("appUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("serves the page and shows the offline model from /api/health", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(appUrl);
    await expect.poll(() => page.getByTestId("health").textContent()).toContain("offline-rules");
    expect(await page.getByTestId("health").textContent()).toContain("offline");
    expect(await page.title()).toContain("wyckoff-edge");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("falls back to the app for client-side routes and keeps /api 404s as JSON", async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${appUrl}/c/s_0000000000000000000000000a`);
    expect(res?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toContain("wyckoff-edge");
    const api = await fetch(`${appUrl}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: "not_found" } });
    await page.close();
  });
});
