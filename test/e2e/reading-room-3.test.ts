/**
 * The reading room's research desk as a person sees it (issue 22, problems 4, 6 and 9): the portfolio
 * page's price, value, P&L and cash that follows a buy and a sale; approval dialogs that show the
 * change before → after (update_portfolio's position and cash, write_file's new file); one health
 * score for a symbol in the chat card, on its chart page and in the portfolio check, with the reasons
 * in Chinese in the Chinese UI. Screenshots (en/zh, desktop and 390 px) go to test/.reports/reading-room-3/.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { api, openApp, screenshotsIn, script, startChat } from "./helpers";

const snap = screenshotsIn("reading-room-3", { fullPage: true });

/** A number as the page prints it (grouping and sign) parsed back. */
const parseNum = (text: string): number => Number(text.replace(/[^\d.+−-]/g, "").replace("−", "-"));

describe("reading room, the desk", () => {
  let browser: Browser;
  const appUrl = inject("scriptedAppUrl");
  const offlineUrl = inject("appUrl");
  const modelUrl = inject("modelUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = (url: string, o: { lang?: "zh" | "en"; width?: number } = {}) => openApp(browser, url, o);

  for (const [lang, width] of [
    ["en", 1280],
    ["zh", 390],
  ] as const) {
    it(`9 (${lang}, ${width}px): the portfolio page shows price, value and P&L, and cash follows a buy and a sale`, async () => {
      const code = lang === "en" ? "SIM.0011" : "SIM.0012";
      await api(offlineUrl, "/api/portfolio/changes", { action: "set_cash", freeCash: 100_000 });
      const page = await open(`${offlineUrl}/portfolio`, { lang, width });
      const cash = page.getByTestId("free-cash");
      await expect.poll(() => cash.innerText()).toBe("100,000.00");
      // Buy through the form: the confirmation says what leaves cash, before → after.
      const form = page.getByTestId("change-form");
      await form.locator('input[name="code"]').fill(code);
      await form.locator('input[name="shares"]').fill("100");
      await form.locator('input[name="cost"]').fill("10");
      await form.getByRole("button").click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      const buyText = await dialog.innerText();
      expect(buyText).toContain(lang === "zh" ? "资金变动 -1,000.00" : "cash -1,000.00");
      expect(buyText).toContain("100,000.00 → 99,000.00");
      await snap(page, `portfolio-confirm-buy-${lang}-${width}`);
      await dialog.getByRole("button", { name: lang === "zh" ? "确认" : "Confirm", exact: true }).click();
      await expect.poll(() => cash.innerText()).toBe("99,000.00");
      const row = page.locator(`[data-testid="position-row"][data-code="${code}"]`);
      await row.getByTestId("position-price").waitFor();
      const price = parseNum(await row.getByTestId("position-price").innerText());
      expect(price).toBeGreaterThan(0);
      const value = parseNum(await row.getByTestId("position-value").innerText());
      expect(value).toBeCloseTo(100 * price, 1);
      const pnl = parseNum(await row.getByTestId("position-pnl").innerText());
      expect(pnl).toBeCloseTo(value - 1000, 1);
      expect(await row.getByTestId("position-pnl-pct").innerText()).toMatch(/^[+-]?[\d.,]+%$/);
      const head = await page.getByTestId("positions").locator("thead").innerText();
      for (const h of lang === "zh" ? ["现价", "市值", "盈亏"] : ["Price", "Value", "P&L"]) expect(head).toContain(h);
      expect(await page.getByTestId("portfolio-totals").innerText()).toContain(
        lang === "zh" ? "总资产" : "Total value",
      );
      await snap(page, `portfolio-${lang}-${width}`);
      // Sell at the last close: the row's Remove fills the form; the proceeds come back into cash.
      await row.getByRole("button", { name: lang === "zh" ? "移除" : "Remove" }).click();
      await form.getByRole("button").click();
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(lang === "zh" ? "资金变动 +" : "cash +");
      await dialog.getByRole("button", { name: lang === "zh" ? "确认" : "Confirm", exact: true }).click();
      await expect.poll(async () => parseNum(await cash.innerText())).toBeCloseTo(99_000 + value, 1);
      expect(await page.locator(`[data-testid="position-row"][data-code="${code}"]`).count()).toBe(0);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 120_000);
  }

  for (const [lang, width] of [
    ["en", 1280],
    ["zh", 390],
  ] as const) {
    it(`9 (${lang}, ${width}px): the approval dialog shows the position and cash before → after, and write_file says new file`, async () => {
      const marker = `mk-approve-${lang}`;
      const code = lang === "en" ? "SIM.0021" : "SIM.0022";
      await api(appUrl, "/api/portfolio/changes", { action: "set_cash", freeCash: 5000 });
      await script(modelUrl, marker, [
        { toolCalls: [{ name: "update_portfolio", arguments: { action: "add", code, shares: 50, cost: 20 } }] },
        { toolCalls: [{ name: "write_file", arguments: { path: `notes/${marker}.md`, content: "hello" } }] },
        { text: "Done." },
      ]);
      const page = await open(appUrl, { lang, width });
      await startChat(page, `buy it ${marker}`);
      const dialog = page.getByTestId("approval-dialog");
      await dialog.waitFor();
      const change = dialog.getByTestId("change-portfolio");
      await change.waitFor();
      const position = await change.getByTestId("change-position").innerText();
      expect(position).toContain(code);
      expect(position).toContain(lang === "zh" ? "（无）" : "(none)");
      expect(position).toContain("50 @ 20.00");
      const cash = await change.getByTestId("change-cash").innerText();
      expect(cash).toContain("5,000.00");
      expect(cash).toContain("4,000.00");
      expect(cash).toContain("-1,000.00");
      expect(await dialog.innerText()).not.toContain('"action"'); // the raw JSON stays folded away
      await snap(page, `approval-portfolio-${lang}-${width}`);
      await dialog.getByRole("button", { name: lang === "zh" ? "允许一次" : "Allow once" }).click();
      // The next call asks too: write_file to a path that does not exist yet.
      const file = page.getByTestId("change-file-kind");
      await expect.poll(() => file.count(), { timeout: 30_000 }).toBe(1);
      expect(await file.innerText()).toBe(lang === "zh" ? "新文件，5 字节" : "new file, 5 bytes");
      await snap(page, `approval-write-file-${lang}-${width}`);
      await page
        .getByTestId("approval-dialog")
        .getByRole("button", { name: lang === "zh" ? "拒绝" : "Deny" })
        .click();
      await page
        .getByTestId("approval-dialog")
        .getByRole("button", { name: lang === "zh" ? "拒绝" : "Deny" })
        .click();
      // The approved buy took its cost out of cash.
      await expect
        .poll(
          async () => ((await api(appUrl, "/api/portfolio")) as { portfolio: { freeCash: number } }).portfolio.freeCash,
        )
        .toBe(4000);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 120_000);
  }

  it("4 and 6 (zh): one health score for a symbol in the chat card, on its chart page and in the portfolio check; reasons in Chinese", async () => {
    // SZ.000151, not SH.600000: offline-answers.test.ts holds 600000 in the same app's portfolio and checks its figures.
    await api(offlineUrl, "/api/portfolio/changes", {
      action: "add",
      code: "SZ.000151",
      shares: 100,
      cost: 8,
      cash: "record",
    });
    const page = await open(offlineUrl, { lang: "zh" });
    await startChat(page, "分析 SZ.000151");
    const card = page.locator('[data-testid="tool-card"][data-tool="analyze_stock"]');
    await expect.poll(() => card.getAttribute("data-phase"), { timeout: 30_000 }).toBe("done");
    const cardHealth = card.getByTestId("health-score");
    const score = await cardHealth.getAttribute("data-score");
    const grade = await cardHealth.getAttribute("data-grade");
    expect(Number(score)).toBeGreaterThanOrEqual(0);
    const reasons = await card.getByTestId("health-reasons").locator("li").allInnerTexts();
    expect(reasons.length).toBeGreaterThan(0);
    for (const r of reasons) expect(r).toMatch(/[\u4e00-\u9fff]/);
    await snap(page, "chat-analysis-zh");
    // The chart page: the same score and grade.
    await page.goto(`${offlineUrl}/analysis/SZ.000151`);
    const pageHealth = page.getByTestId("health-score");
    await pageHealth.waitFor();
    expect([await pageHealth.getAttribute("data-score"), await pageHealth.getAttribute("data-grade")]).toEqual([
      score,
      grade,
    ]);
    // The portfolio check: the holding's health is that score too.
    await page.goto(offlineUrl);
    await startChat(page, "查看持仓");
    const answer = page.getByTestId("assistant-message").first().getByTestId("markdown").last();
    await expect.poll(() => answer.innerText(), { timeout: 30_000 }).toMatch(/离线规则模型/);
    const gradeZh = { healthy: "健康", warning: "警告", danger: "危险" }[grade ?? "healthy"];
    expect(await answer.innerText()).toContain(`健康度 ${score}/100（${gradeZh}`);
    await snap(page, "holdings-check-zh");
    expect(page.errors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
