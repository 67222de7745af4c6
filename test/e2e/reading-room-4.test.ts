/**
 * The reading room as a person sees it, third pass (issue 22, problems 6 and 9): an honest retry delay
 * after a model 500, no "Usage: 0 in · 0 out" under a stopped turn, the opt-in browser notification
 * when a background task ends while the tab is in the background, the market clock in Chinese, and no
 * English left on the Chinese UI's main surfaces (tool errors, task notices, the tasks panel, the
 * backtest view, trade records). Then a screenshot tour — home, chat with an analysis card, chart
 * page, portfolio, screening and backtest views, approval dialog — in en and zh at 1280 and 390 px,
 * saved to test/.reports/reading-room-4/.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { api, englishLeft, openApp, screenshotsIn, script, send, startChat, turnSettled } from "./helpers";

const snap = screenshotsIn("reading-room-4");

/** Waits until `ready()` holds (hooks cannot use expect.poll); throws after `ms`. */
async function until(ready: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`not ready within ${ms} ms`);
}

describe("reading room, third pass", () => {
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

  const open = (url: string, o: { lang?: "zh" | "en"; width?: number; context?: BrowserContext } = {}) =>
    openApp(browser, url, o);

  for (const lang of ["en", "zh"] as const) {
    it(`9 (${lang}): after a model 500 the retry note names the real delay, never "0.0 s"`, async () => {
      const marker = `mk-r500-${lang}`;
      await script(modelUrl, marker, [{ status: 500 }, { text: `Recovered ${marker}.` }]);
      const page = await open(appUrl, { lang });
      await startChat(page, `${lang === "zh" ? "请回答" : "answer please"} ${marker}`);
      await expect.poll(() => page.getByTestId("assistant-message").last().innerText()).toContain("Recovered");
      const note = await page.locator('[data-testid="inline-note"][data-note="retry"]').first().innerText();
      const delay = note.match(lang === "zh" ? /(\d+(?:\.\d)?) (ms|s) 后重试/ : /retrying in (\d+(?:\.\d)?) (ms|s)/);
      expect(delay, note).not.toBeNull();
      expect(Number(delay?.[1])).toBeGreaterThan(0);
      expect(note).not.toMatch(/\b0\.0 s/);
      expect(note).toContain("500");
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  for (const lang of ["en", "zh"] as const) {
    it(`9 (${lang}): a turn stopped before the model answered shows no "Usage: 0 in · 0 out" line`, async () => {
      const marker = `mk-stop0-${lang}`;
      // The first chunk comes late: the turn is stopped before any token is counted.
      await script(modelUrl, marker, [{ text: "late words", chunkDelayMs: 8000, chunkSize: 4 }]);
      const page = await open(appUrl, { lang });
      await startChat(page, `${lang === "zh" ? "慢慢回答" : "answer slowly"} ${marker}`);
      // Stop once the turn is open on the server (the page says it is answering), not while connecting.
      await expect
        .poll(
          () =>
            page
              .getByTestId("composer-busy")
              .innerText()
              .catch(() => ""),
          { timeout: 30_000 },
        )
        .toMatch(lang === "zh" ? /正在回答/ : /answering/);
      const stop = page.getByTestId("stop");
      await stop.click();
      await page.getByTestId("turn-cancelled").waitFor();
      expect(await page.getByTestId("turn-cancelled").innerText()).toContain(lang === "zh" ? "已停止" : "Stopped");
      const status = await page.getByTestId("status-line").innerText();
      expect(status).not.toMatch(/0 in · 0 out|0 输入|Usage: 0|用量：?\s*0/);
      expect(await page.getByTestId("assistant-message").last().innerText()).not.toMatch(/Usage: 0 in|用量：0/);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  it("9 (zh): with notifications turned on, a background task that ends while the tab is hidden raises one browser notification", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: "zh-CN" });
    await ctx.grantPermissions(["notifications"], { origin: offlineUrl });
    // Record what the page asks the browser to show, and let the test say when the tab is in the background.
    await ctx.addInitScript(() => {
      const shown: { title: string; body: string; tag: string }[] = [];
      const Real = window.Notification;
      class Recorded extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push({ title, body: options?.body ?? "", tag: options?.tag ?? "" });
        }
      }
      Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
      Object.assign(window, { __shown: shown, __hidden: false });
      Object.defineProperty(document, "visibilityState", {
        configurable: true,
        get: () => ((window as unknown as { __hidden: boolean }).__hidden ? "hidden" : "visible"),
      });
    });
    const page = await open(offlineUrl, { lang: "zh", context: ctx });
    await startChat(page, "你好");
    const toggle = page.getByTestId("notify-toggle");
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false); // opt-in: off until turned on
    await toggle.check();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    // Nothing is shown while the tab is in view: the task starts, then the person switches tabs.
    await turnSettled(page, 30_000);
    await send(page, "筛选市场");
    const panel = page.getByTestId("tasks-panel");
    await expect.poll(() => panel.getByTestId("task-item").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
      document.dispatchEvent(new Event("visibilitychange"));
    });
    const shown = () =>
      page.evaluate(() => (window as unknown as { __shown: { title: string; body: string }[] }).__shown);
    await expect.poll(async () => (await shown()).length, { timeout: 150_000, interval: 500 }).toBe(1);
    const [note] = await shown();
    expect(note?.title).toBe("后台任务完成");
    expect(note?.body).toBe("选股：已完成");
    await page.context().close();
  }, 200_000);

  it("6 (zh): the market clock answers in Chinese — on its card and in the offline answer", async () => {
    const page = await open(offlineUrl, { lang: "zh" });
    await startChat(page, "现在 A 股开盘了吗？");
    const clock = page.getByTestId("market-clock");
    await clock.waitFor({ timeout: 30_000 });
    const text = await clock.innerText();
    expect(text).toMatch(/上海时间 \d{4}-\d{2}-\d{2} 星期[一二三四五六日] \d{2}:\d{2}:\d{2}/);
    expect(text).toMatch(/开盘前|上午交易时段|午间休市|下午交易时段|已收盘|周末休市/);
    expect(englishLeft(text)).toEqual([]);
    const answer = page.getByTestId("assistant-message").last().getByTestId("markdown").last();
    await expect.poll(() => answer.innerText(), { timeout: 30_000 }).toContain("上海时间");
    expect(await answer.innerText()).not.toContain("Exchange holidays");
    expect(await answer.innerText()).not.toMatch(/- (market|session|weekday):/);
    await snap(page, "market-clock-zh");
    expect(page.errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("6 (zh): no English on the main surfaces — a tool error asked in English, the task notices, the tasks panel, the backtest view, trade records", async () => {
    const page = await open(offlineUrl, { lang: "zh" });
    // Asked in English in the Chinese UI: the error card still speaks the UI's language.
    await startChat(page, "analyze AAPL");
    const error = page.locator(".tool-error").first();
    await error.waitFor({ timeout: 30_000 });
    expect(await error.innerText()).toMatch(/^未找到：离线模式下没有 US\.AAPL/);
    // A backtest of a named symbol: its notice, its panel entry and its result view.
    await page.goto(offlineUrl);
    await startChat(page, "回测 SIM.0002");
    const panel = page.getByTestId("tasks-panel");
    await expect
      .poll(() => panel.getByTestId("task-status").first().innerText(), { timeout: 150_000, interval: 500 })
      .toBe("已完成");
    const notice = page.getByTestId("system-notice").last();
    await notice.waitFor({ timeout: 60_000 });
    const noticeText = await notice.innerText();
    expect(noticeText).toContain("回测");
    expect(noticeText).toContain("注意事项");
    expect(englishLeft(noticeText), noticeText).toEqual([]);
    expect(englishLeft(await panel.innerText())).toEqual([]);
    await panel.getByTestId("view-result").first().click();
    const view = page.getByTestId("backtest-view");
    await view.waitFor();
    expect(englishLeft(await view.innerText()), await view.innerText()).toEqual([]);
    await page.keyboard.press("Escape");
    // Trade records written by the server (a buy with its cash move, a sale) read in Chinese.
    await api(offlineUrl, "/api/portfolio/changes", { action: "set_cash", freeCash: 50_000 });
    await api(offlineUrl, "/api/portfolio/changes", { action: "add", code: "SIM.0031", shares: 100, cost: 10 });
    await api(offlineUrl, "/api/portfolio/changes", { action: "remove", code: "SIM.0031", price: 12 });
    await page.goto(`${offlineUrl}/portfolio`);
    const trades = page.getByTestId("trades");
    await trades.waitFor();
    const records = await trades.innerText();
    expect(records).toContain("买入 SIM.0031");
    expect(records).toContain("资金 −1000");
    expect(records).toContain("以 12 卖出，资金 +1200");
    expect(englishLeft(records), records).toEqual([]);
    expect(page.errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  describe("screenshot tour", () => {
    /** Sessions made once on the offline app: an analysis, a screening, a backtest (both finished). */
    const made: { analysis?: string; screening?: string; backtest?: string } = {};

    beforeAll(async () => {
      const page = await open(offlineUrl, { lang: "zh" });
      made.analysis = await startChat(page, "分析上证指数");
      await page.getByTestId("analysis").first().waitFor({ timeout: 120_000 });
      for (const [key, text] of [
        ["screening", "筛选市场"],
        ["backtest", "回测 SIM.0003"],
      ] as const) {
        await page.goto(offlineUrl);
        made[key] = await startChat(page, text);
        await until(
          async () =>
            (await page.getByTestId("tasks-panel").getByTestId("task-status").first().innerText()) === "已完成",
          150_000,
        );
      }
      await page.context().close();
    }, 400_000);

    for (const [lang, width] of [
      ["en", 1280],
      ["zh", 1280],
      ["en", 390],
      ["zh", 390],
    ] as const) {
      it(`home, chat with an analysis card, chart page, portfolio, screening and backtest views, approval dialog (${lang}, ${width}px)`, async () => {
        const tag = `${lang}-${width}`;
        const page = await open(offlineUrl, { lang, width });
        await page.getByTestId("composer").waitFor();
        await snap(page, `home-${tag}`);
        await page.goto(`${offlineUrl}/c/${made.analysis}`);
        await page.getByTestId("analysis").first().waitFor();
        await page.locator(".chart-box canvas").first().waitFor({ timeout: 60_000 });
        await page.getByTestId("analysis").first().scrollIntoViewIfNeeded();
        await snap(page, `chat-analysis-${tag}`);
        await page.goto(`${offlineUrl}/analysis/SH.000001`);
        await page.locator(".chart-box canvas").first().waitFor({ timeout: 60_000 });
        await snap(page, `chart-page-${tag}`);
        await page.goto(`${offlineUrl}/portfolio`);
        await page.getByTestId("free-cash").waitFor();
        await snap(page, `portfolio-${tag}`);
        for (const [key, view] of [
          ["screening", "screening-view"],
          ["backtest", "backtest-view"],
        ] as const) {
          await page.goto(`${offlineUrl}/c/${made[key]}`);
          const notice = page.getByTestId("system-notice").last();
          await notice.waitFor({ timeout: 60_000 });
          await notice.getByTestId("view-result").click();
          await page.getByTestId(view).waitFor();
          await snap(page, `${key}-view-${tag}`);
        }
        expect(page.errors).toEqual([]);
        await page.context().close();
        // The approval dialog needs a model that asks for a change: the scripted app.
        const marker = `mk-tour-${tag}`;
        await api(appUrl, "/api/portfolio/changes", { action: "set_cash", freeCash: 5000 });
        await script(modelUrl, marker, [
          {
            toolCalls: [
              { name: "update_portfolio", arguments: { action: "add", code: "SIM.0041", shares: 10, cost: 20 } },
            ],
          },
          { text: "Done." },
        ]);
        const chat = await open(appUrl, { lang, width });
        await startChat(chat, `buy it ${marker}`);
        const dialog = chat.getByTestId("approval-dialog");
        await dialog.getByTestId("change-portfolio").waitFor({ timeout: 60_000 });
        await snap(chat, `approval-${tag}`);
        expect(chat.errors).toEqual([]);
        await chat.context().close();
      }, 240_000);
    }
  });
});
