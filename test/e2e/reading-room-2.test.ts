/**
 * The reading room's second pass (issue 22, problems 1 and 5–9), as a person sees it: turns the page
 * did not start appear live (another tab, a share link opened before the turn), the view follows a
 * sent message with a "jump to latest" control, background results open as research views
 * (screening table, backtest metrics, equity curve and trades, a named-symbol backtest), the chart
 * page's readout, weekly view and toggles, and the desk's tools (slash menu sends, copy, export,
 * theme switch) in both languages. Screenshots go to test/.reports/reading-room-2/.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { englishLeft, lastAnswer, openApp, screenshotsIn, script, send, startChat, turnSettled } from "./helpers";

const snap = screenshotsIn("reading-room-2");

describe("reading room, second pass", () => {
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

  const open = (url: string, o: { lang?: "zh" | "en"; width?: number } = {}) =>
    openApp(browser, url, { acceptDownloads: true, ...o });

  it("1: a turn sent from another tab and a share link opened before it both appear live, without a reload", async () => {
    await script(modelUrl, "mk-live-a", [{ text: "First answer mk-live-a." }]);
    await script(modelUrl, "mk-live-b", [
      { text: "Second answer, from the other tab.", chunkDelayMs: 20, chunkSize: 8 },
    ]);
    const first = await open(appUrl);
    const id = await startChat(first, "hello mk-live-a");
    await expect.poll(() => lastAnswer(first)).toContain("First answer");
    const share = (await (
      await fetch(`${appUrl}/api/sessions/${id}/share`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json()) as { token: string };
    const viewer = await open(`${appUrl}/s/${share.token}`);
    await viewer.getByTestId("share-page").waitFor();
    await expect.poll(() => viewer.getByTestId("assistant-message").count()).toBe(1);
    // Another tab sends the next message; neither open page started that turn.
    const other = await open(`${appUrl}/c/${id}`);
    await expect.poll(() => other.getByTestId("assistant-message").count()).toBe(1);
    await send(other, "and now mk-live-b");
    await expect.poll(() => lastAnswer(other)).toContain("from the other tab");
    await expect
      .poll(() => first.getByTestId("user-message").last().innerText(), { timeout: 30_000 })
      .toContain("mk-live-b");
    await expect.poll(() => lastAnswer(first), { timeout: 30_000 }).toContain("Second answer, from the other tab.");
    await expect.poll(() => lastAnswer(viewer), { timeout: 30_000 }).toContain("Second answer, from the other tab.");
    expect(await first.getByTestId("assistant-message").count()).toBe(2);
    await snap(first, "live-other-tab-en");
    await snap(viewer, "live-share-en");
    expect([...first.errors, ...viewer.errors, ...other.errors]).toEqual([]);
    await first.context().close();
    await viewer.context().close();
    await other.context().close();
  }, 120_000);

  it("1 (zh): in the Chinese UI, a turn from another tab streams in Chinese — its answer, the task notice and the reply — in the open chat and a share link", async () => {
    // The offline model answers in the question's language; the Chinese UI says the rest.
    const first = await open(offlineUrl, { lang: "zh" });
    const id = await startChat(first, "你好");
    await expect.poll(() => first.getByTestId("assistant-message").count(), { timeout: 30_000 }).toBe(1);
    await turnSettled(first, 30_000);
    const share = (await (
      await fetch(`${offlineUrl}/api/sessions/${id}/share`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json()) as { token: string };
    const viewer = await open(`${offlineUrl}/s/${share.token}`, { lang: "zh" });
    await viewer.getByTestId("share-page").waitFor();
    await expect.poll(() => viewer.getByTestId("assistant-message").count()).toBe(1);
    // Another tab asks for a backtest; neither open page started that turn, nor the notice turn after it.
    const other = await open(`${offlineUrl}/c/${id}`, { lang: "zh" });
    await expect.poll(() => other.getByTestId("assistant-message").count()).toBe(1);
    await send(other, "回测 SIM.0002");
    for (const page of [first, viewer]) {
      await expect
        .poll(() => page.getByTestId("user-message").last().innerText(), { timeout: 30_000 })
        .toContain("回测 SIM.0002");
      const list = page.getByTestId("message-list");
      // The backtest tool's answer, then the notice of its end and the reply to it, all streamed in.
      await expect.poll(() => list.innerText(), { timeout: 30_000 }).toContain("已提交");
      const notice = page.getByTestId("system-notice").last();
      await notice.waitFor({ timeout: 150_000 });
      await expect.poll(() => notice.innerText(), { timeout: 30_000 }).toContain("回测");
      const noticeText = await notice.innerText();
      expect(noticeText).toContain("已完成");
      expect(englishLeft(noticeText), noticeText).toEqual([]);
      await expect.poll(() => lastAnswer(page), { timeout: 60_000 }).toMatch(/胜率 [\d.]+%/);
      const all = await page.getByTestId("message-list").innerText();
      expect(englishLeft(all), all).toEqual([]);
    }
    const panel = first.getByTestId("tasks-panel");
    await expect.poll(() => panel.getByTestId("task-status").first().innerText(), { timeout: 30_000 }).toBe("已完成");
    expect(englishLeft(await panel.innerText())).toEqual([]);
    await snap(first, "live-other-tab-zh");
    await snap(viewer, "live-share-zh");
    expect([...first.errors, ...viewer.errors, ...other.errors]).toEqual([]);
    await first.context().close();
    await viewer.context().close();
    await other.context().close();
  }, 300_000);

  it("5: sending while scrolled up brings the view to the bottom; scrolled up, a 'jump to latest' control does too", async () => {
    const long = Array.from({ length: 60 }, (_, i) => `Line ${i} of a long answer.`).join("\n\n");
    await script(modelUrl, "mk-scroll-1", [{ text: long }]);
    await script(modelUrl, "mk-scroll-2", [{ text: `${long}\n\nTail mk-scroll-2.` }]);
    const page = await open(appUrl, { lang: "zh" });
    await startChat(page, "long mk-scroll-1");
    await expect.poll(() => lastAnswer(page)).toContain("Line 59");
    const list = page.getByTestId("message-list");
    const gap = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await list.evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event("scroll"));
    });
    const jump = page.getByTestId("jump-latest");
    await jump.waitFor();
    expect(await jump.innerText()).toContain("跳到最新");
    await snap(page, "jump-latest-zh");
    await jump.click();
    await expect.poll(gap).toBeLessThan(80);
    expect(await page.getByTestId("jump-latest").count()).toBe(0);
    // Scrolled up again, the person sends: the view follows their message and the answer.
    await list.evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event("scroll"));
    });
    await send(page, "more mk-scroll-2");
    await expect.poll(() => lastAnswer(page)).toContain("Tail mk-scroll-2");
    await expect.poll(gap).toBeLessThan(80);
    expect(page.errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  for (const lang of ["en", "zh"] as const) {
    it(`7 (${lang}): a backtest of a named symbol shows in the panel once queued and opens as metrics, equity curve and trades`, async () => {
      const marker = `mk-bt-${lang}`;
      await script(modelUrl, marker, [
        { toolCalls: [{ name: "run_backtest", arguments: { symbol: "SIM.0002", hold_days: 5, top_n: 2 } }] },
        { text: "Backtest queued." },
      ]);
      const page = await open(appUrl, { lang });
      await startChat(page, `backtest SIM.0002 ${marker}`);
      const panel = page.getByTestId("tasks-panel");
      await expect.poll(() => panel.getByTestId("task-item").count()).toBe(1);
      const status = panel.getByTestId("task-status");
      await expect
        .poll(() => status.innerText(), { timeout: 90_000, interval: 500 })
        .toBe(lang === "zh" ? "已完成" : "succeeded");
      expect(await panel.innerText()).toContain(lang === "zh" ? "回测" : "Backtest");
      await panel.getByTestId("view-result").click();
      const view = page.getByTestId("backtest-view");
      await view.waitFor();
      expect(await view.innerText()).toContain("SIM.0002");
      // The run line names the exit mode in words, not the engine's code.
      expect(await view.innerText()).toContain(lang === "zh" ? "止损止盈" : "stop-loss/take-profit");
      expect(await view.innerText()).not.toContain("sltp");
      expect(await view.getByTestId("backtest-metrics").innerText()).toContain(
        lang === "zh" ? "最大回撤" : "Max drawdown",
      );
      await page.getByTestId("equity-strategy").waitFor({ state: "attached" });
      expect(await page.getByTestId("equity-benchmark").count()).toBe(1);
      const rows = page.getByTestId("trade-row");
      if ((await rows.count()) > 0) expect(await rows.first().innerText()).toContain("SIM.0002");
      else expect(await view.innerText()).toContain(lang === "zh" ? "没有交易" : "No trades");
      await snap(page, `backtest-view-${lang}`);
      // Reachable from the chat too: the finished task's notice has the same button.
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByTestId("system-notice").count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await page.getByTestId("system-notice").last().getByTestId("view-result").count()).toBe(1);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 150_000);
  }

  for (const lang of ["en", "zh"] as const) {
    it(`7 (${lang}): the offline screening result opens as layer counts, the regime and a candidate table linking to charts; on a phone the panel is a drawer`, async () => {
      const zh = lang === "zh";
      const page = await open(offlineUrl, { lang, width: 390 });
      await startChat(page, zh ? "筛选市场" : "screen the market");
      const toggle = page.getByTestId("tasks-toggle");
      await toggle.waitFor();
      expect(await toggle.isVisible()).toBe(true);
      await toggle.click();
      const panel = page.getByTestId("tasks-panel");
      await expect.poll(() => panel.getByTestId("task-item").count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect
        .poll(() => panel.getByTestId("task-status").first().innerText(), { timeout: 120_000, interval: 500 })
        .toBe(zh ? "已完成" : "succeeded");
      await snap(page, `tasks-drawer-phone-${lang}`);
      await panel.getByTestId("view-result").first().click();
      const view = page.getByTestId("screening-view");
      await view.waitFor();
      const text = await view.innerText();
      // The regime line and the headings in the reader's language.
      expect(text).toMatch(zh ? /大盘：(?:牛市|中性|谨慎|避险|崩跌|修复|修复确认)/ : /regime: [a-z]/);
      expect(text).toContain(zh ? "各层数量" : "Per-layer counts");
      if (zh) expect(text).not.toMatch(/regime|Per-layer|simulated|Candidates/);
      // The top-sectors line, when there is one, with the reader's punctuation: each sector's count and
      // the strength it is ranked by.
      const sectors = view.getByTestId("top-sectors");
      if ((await sectors.count()) > 0)
        expect(await sectors.innerText()).toMatch(
          zh ? /^行业：\S+（\d+ 只，强度 \d\.\d\d）/ : /^Sector: \S.* \(\d+ stocks, strength \d\.\d\d\)/,
        );
      const layers = page.getByTestId("layer-table").locator("tbody tr");
      expect(await layers.count()).toBe(6);
      const candidates = page.getByTestId("candidate-row");
      if ((await candidates.count()) > 0) {
        const link = candidates.first().getByTestId("chart-link");
        expect(await link.getAttribute("href")).toMatch(/^\/analysis\//);
      } else expect(text).toContain(zh ? "没有候选股。" : "No candidates");
      await snap(page, `screening-view-phone-${lang}`);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 200_000);
  }

  for (const [lang, width] of [
    ["en", 1280],
    ["zh", 390],
  ] as const) {
    it(`8 (${lang}, ${width}px): the chart page has an OHLC readout on hover, a weekly view, MA/volume toggles and a symbol search`, async () => {
      const page = await open(`${offlineUrl}/analysis/SIM.0002`, { lang, width });
      const chart = page.getByTestId("chart");
      await expect.poll(() => chart.getAttribute("data-ready"), { timeout: 30_000 }).toBe("true");
      const dailyBars = Number(await chart.getAttribute("data-bars"));
      expect(Number(await chart.getAttribute("data-markers"))).toBeGreaterThan(0);
      const readout = page.getByTestId("ohlc-readout");
      const before = await readout.innerText();
      expect(before).toMatch(lang === "zh" ? /开 .*高 .*低 .*收 .*量/ : /O .*H .*L .*C .*Vol/);
      const box = await chart.boundingBox();
      if (box) await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
      await expect.poll(() => readout.innerText()).not.toBe(before);
      await snap(page, `chart-hover-${lang}-${width}`);
      await page.getByTestId("chart-weekly").click();
      await expect.poll(async () => Number(await chart.getAttribute("data-bars"))).toBeLessThan(dailyBars / 3);
      expect(await chart.getAttribute("data-interval")).toBe("weekly");
      await page.getByTestId("toggle-ma").uncheck();
      await page.getByTestId("toggle-volume").uncheck();
      await expect.poll(() => chart.getAttribute("data-ready")).toBe("true");
      await snap(page, `chart-weekly-${lang}-${width}`);
      // The labels that are drawn never collide: fewer or as many as the markers.
      expect(Number(await chart.getAttribute("data-labels"))).toBeLessThanOrEqual(
        Number(await chart.getAttribute("data-markers")),
      );
      const search = page.getByTestId("symbol-search");
      await search.fill("SIM.0003");
      await search.press("Enter");
      await page.waitForURL(/\/analysis\/SIM\.0003$/);
      await expect.poll(() => page.locator("h1").innerText()).toContain("SIM.0003");
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  for (const lang of ["zh", "en"] as const) {
    it(`9 (${lang}): slash menu Enter sends; copy and export a message; the theme switch darkens the page and the chart`, async () => {
      const zh = lang === "zh";
      const page = await open(offlineUrl, { lang });
      const box = page.getByTestId("composer");
      await box.click();
      await box.pressSequentially("/checkup");
      const menu = page.getByTestId("skill-menu");
      await menu.waitFor();
      await expect.poll(() => menu.innerText()).toContain(zh ? "Enter/Tab 补全" : "Enter/Tab complete");
      await box.press("Enter");
      await page.waitForURL(/\/c\/s_/);
      await expect.poll(() => page.getByTestId("user-message").first().innerText()).toContain("/checkup");
      await turnSettled(page, 60_000);
      const answer = page.getByTestId("assistant-message").last();
      const copy = answer.getByTestId("copy-message");
      await expect.poll(() => copy.innerText()).toBe(zh ? "复制" : "Copy");
      await copy.click();
      await expect.poll(() => copy.innerText()).toBe(zh ? "✓ 已复制" : "✓ Copied");
      const exportButton = page.getByTestId("export-transcript");
      await expect.poll(() => exportButton.innerText()).toBe(zh ? "导出对话" : "Export transcript");
      const download = page.waitForEvent("download");
      await exportButton.click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.md$/);
      const markdown = Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8");
      expect(markdown).toContain("/checkup");
      // The transcript's speaker headings in the reader's language.
      expect(markdown).toContain(zh ? "## 你\n" : "## You\n");
      expect(markdown).toContain(zh ? "## 助手\n" : "## Agent\n");
      // Theme: the switch sets a dark page regardless of the system, and says so in the reader's language.
      const theme = page.getByTestId("theme-switch");
      await theme.click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await expect.poll(() => theme.getAttribute("aria-label")).toBe(zh ? "外观：深色" : "Theme: Dark");
      const bg = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--bg").trim());
      expect(bg).toBe("#141518");
      await page.goto(`${offlineUrl}/analysis/SIM.0002`);
      await expect.poll(() => page.getByTestId("chart").getAttribute("data-ready"), { timeout: 30_000 }).toBe("true");
      await snap(page, `chart-dark-${lang}`);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }, 120_000);
  }
});
