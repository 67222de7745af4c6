/**
 * Offline answers as a person sees them (no model keys, bundled data, Chromium): the starters name
 * bundled real symbols and lead to a real-data analysis card; English codes too; the holdings answer
 * shows P&L, value and stop; an offline screening turn with a regime question shows no red card; a
 * symbol outside the bundle is answered in the UI's language with what the bundle holds. Per-test
 * limits are hang caps for a loaded machine (the polls wait on what the page shows), not budgets.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { openPage, shot, startChat, turnSettled } from "./helpers";

async function toChinese(page: Page): Promise<void> {
  await page.getByRole("button", { name: "中文" }).click();
  await expect.poll(() => page.getByTestId("composer").getAttribute("placeholder")).toContain("分析");
}

/** The answer text of the turn the test sent (the first assistant message: a finished task may add more). */
function lastMarkdown(page: Page): Promise<string> {
  return page.getByTestId("assistant-message").first().getByTestId("markdown").last().innerText();
}

async function finalAnswer(page: Page, label: RegExp): Promise<string> {
  await expect.poll(() => lastMarkdown(page), { timeout: 20_000 }).toMatch(label);
  return lastMarkdown(page);
}

describe("offline answers on real data", () => {
  let browser: Browser;
  const appUrl = inject("appUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("分析上证指数 from the Chinese starters shows a real-data analysis card", async () => {
    const page = await openPage(browser, appUrl);
    await toChinese(page);
    expect(await page.getByRole("button", { name: "analyze AAPL", exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "分析上证指数", exact: true }).click();
    await page.waitForURL(/\/c\/s_/);
    const card = page.locator('[data-testid="tool-card"][data-tool="analyze_stock"]');
    await expect.poll(() => card.getAttribute("data-phase"), { timeout: 20_000 }).toBe("done");
    const chart = card.getByTestId("chart");
    await expect.poll(() => chart.getAttribute("data-ready"), { timeout: 10_000 }).toBe("true");
    expect(await card.locator(".tool-error").count()).toBe(0);
    const answer = await finalAnswer(page, /离线规则模型/);
    expect(answer).toContain("SH.000001 上证指数");
    expect(answer).toContain("截至 2024-09-19");
    expect(answer).toContain("真实历史行情");
    expect(answer).toContain("数据来源：离线数据包");
    // the card's trigger chips and event variants in Chinese, not the engine's words
    expect(await card.innerText()).not.toMatch(
      /\b(spring|sos|lps|evr|compression|trend_pullback|weakClose|down|exit)\b/,
    );
    expect(answer).not.toContain("模拟数据");
    await shot(page, "offline-sse-zh");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 90_000);

  it.each([
    ["analyze 399006", "SZ.399006 创业板指"],
    ["分析 600000", "SH.600000 浦发银行"],
  ])(
    "%s answers on the bundled real series",
    async (question, label) => {
      const page = await openPage(browser, appUrl);
      await startChat(page, question);
      const answer = await finalAnswer(page, /Offline rule model|离线规则模型/);
      expect(answer).toContain(label);
      expect(answer).toMatch(/real historical bars|真实历史行情/);
      expect(await page.locator(".tool-error").count()).toBe(0);
      await page.close();
    },
    90_000,
  );

  it("answers holdings with price, value, P&L and stop, in English and in Chinese", async () => {
    const add = await fetch(`${appUrl}/api/portfolio/changes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "add", code: "600000", shares: 1000, cost: 7.5, stop: 7 }),
    });
    expect(add.status).toBe(200);
    const page = await openPage(browser, appUrl);
    await startChat(page, "show my holdings");
    const en = await finalAnswer(page, /Offline rule model/);
    expect(en).toContain("SH.600000");
    expect(en).toContain("P&L +13.60%"); // 8.52 last close vs 7.50 cost
    expect(en).toContain("value 8520");
    expect(en).toMatch(/stop \d+(\.\d+)? \((clear|near the stop|hit)\)/); // the tighter of 7 and the engine's stops
    expect(en).toMatch(/health \d+\/100/);
    expect(en).not.toMatch(/positions: 1 item/);
    await shot(page, "offline-holdings-en");
    await page.goto(appUrl);
    await toChinese(page);
    await startChat(page, "查看持仓");
    const zh = await finalAnswer(page, /离线规则模型/);
    expect(zh).toContain("盈亏 +13.60%");
    expect(zh).toMatch(/止损 \d+(\.\d+)?（(安全|接近止损|已触发)）/);
    expect(zh).toContain("市值 8520");
    await shot(page, "offline-holdings-zh");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("an offline screening turn that asks for the regime shows no red card", async () => {
    const page = await openPage(browser, appUrl);
    await startChat(page, "选股，并看看市场状态");
    const regime = page.locator('[data-testid="tool-card"][data-tool="market_regime"]');
    await expect.poll(() => regime.getAttribute("data-phase"), { timeout: 20_000 }).toBe("done");
    const screen = page.locator('[data-testid="tool-card"][data-tool="screen_stocks"]');
    await expect.poll(() => screen.getAttribute("data-phase"), { timeout: 20_000 }).toBe("done");
    const answer = await finalAnswer(page, /离线规则模型/);
    expect(answer).toContain("上证指数");
    expect(answer).toContain("后台任务");
    expect(await page.locator(".tool-error").count()).toBe(0);
    await shot(page, "offline-screen-regime-zh");
    await page.close();
  }, 90_000);

  it("a symbol outside the bundle is answered in the UI's language with what the bundle holds", async () => {
    const page = await openPage(browser, appUrl);
    await toChinese(page);
    await startChat(page, "分析 600519");
    const error = page.locator(".tool-error");
    await expect.poll(() => error.count(), { timeout: 20_000 }).toBe(1);
    expect(await error.innerText()).toContain("离线模式下没有 SH.600519");
    const answer = await finalAnswer(page, /离线规则模型/);
    expect(answer).toContain("上证指数 SH.000001");
    expect(answer).not.toContain("No offline data");
    await page.close();
  }, 90_000);

  it("3: memory is saved and recalled in the asker's language, quoted HTML stays text, 茅台怎么样 and the skills reach their tools", async () => {
    const page = await openPage(browser, appUrl);
    const internal = /\b(get_market_overview|search_stock_by_name|check_background_tasks|intraday_analysis)\b/;
    await startChat(page, "Remember: I prefer <b>tight</b> stops on spring setups");
    const saved = await finalAnswer(page, /Offline rule model/);
    expect(saved).toContain("<b>tight</b> stops on spring setups"); // shown as typed, not parsed as HTML
    expect(await page.getByTestId("assistant-message").first().locator("b").count()).toBe(0);
    expect(saved).not.toMatch(internal);
    // The memory is written after the turn; ask once it is stored.
    await expect
      .poll(
        async () =>
          JSON.stringify(await (await fetch(`${appUrl}/api/memory?limit=50`)).json()).includes("spring setups"),
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.goto(appUrl);
    await startChat(page, "what do you remember");
    const recalled = await finalAnswer(page, /Offline rule model/);
    expect(recalled).toContain("spring setups");
    expect(recalled).not.toMatch(/[\u4e00-\u9fff]{2,}/); // an English question, answered in English
    expect(recalled).not.toMatch(internal);
    await shot(page, "offline-memory-en");
    // 茅台怎么样 is a question about a symbol: the analysis tool, not a list of tools.
    await page.goto(appUrl);
    await toChinese(page);
    await startChat(page, "茅台怎么样");
    await page.locator('[data-testid="tool-card"][data-tool="analyze_stock"]').waitFor({ timeout: 30_000 });
    const maotai = await finalAnswer(page, /离线规则模型/);
    expect(maotai).not.toMatch(internal);
    // The built-in skills run their own tools: /report its report (never a name search), /strategy its decision.
    for (const [typed, tool] of [
      ["/report 600000", "generate_ai_report"],
      ["/strategy", "generate_strategy_decision"],
    ] as const) {
      await page.goto(appUrl);
      await startChat(page, typed);
      await page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`).waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-testid="tool-card"][data-tool="search_stock_by_name"]').count()).toBe(0);
      await turnSettled(page, 60_000);
    }
    expect(page.errors).toEqual([]);
    await page.close();
  }, 240_000);
});
