/**
 * Live turns against the app pointed at the scripted model: text streaming in, approvals (allow,
 * deny, edit, across a reload), Stop, a reload mid-turn resuming without duplicates, a retry note,
 * and an error with its diagnosis and a working retry. Each test's message carries a unique marker
 * that selects its scripted queue.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { lastAnswer, openPage, script, shot, startChat, turnSettled } from "./helpers";

const words = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, "0")}`);

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe("live turns (scripted model)", () => {
  let browser: Browser;
  const appUrl = inject("scriptedAppUrl");
  const modelUrl = inject("modelUrl");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function approvalRound(page: Page, marker: string, title: string) {
    await script(modelUrl, marker, [
      { toolCalls: [{ name: "rename_session", arguments: { title } }] },
      { text: `Done with ${marker}.` },
    ]);
    await startChat(page, `please name this session ${marker}`);
    const dialog = page.getByTestId("approval-dialog");
    await dialog.waitFor();
    return dialog;
  }

  it("streams text in, with reasoning, markdown and the usage line", async () => {
    const page = await openPage(browser, appUrl);
    const text = `## Reading\n\nThe range **holds**: ${words("s", 40).join(" ")} end-of-stream.`;
    await script(modelUrl, "mk-stream", [
      { reasoning: "Think about the range first.", text, chunkDelayMs: 25, chunkSize: 6 },
    ]);
    await startChat(page, "explain the trading range mk-stream");
    // partial text is visible before the end arrives
    await expect.poll(() => lastAnswer(page), { interval: 50 }).toMatch(/s00\d/);
    expect(await lastAnswer(page)).not.toContain("end-of-stream");
    expect(await page.getByTestId("composer-busy").textContent()).toContain("answering");
    await shot(page, "chat-streaming");
    await expect.poll(() => lastAnswer(page)).toContain("end-of-stream");
    const answer = page.getByTestId("assistant-message").last();
    expect(await answer.locator("h2").textContent()).toBe("Reading");
    expect(await answer.locator(".md strong").first().textContent()).toBe("holds");
    expect(await answer.getByTestId("reasoning").textContent()).toContain("Reasoning");
    await expect.poll(() => page.getByTestId("status-line").textContent()).toMatch(/Usage: [1-9]/);
    await turnSettled(page);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("runs a tool after it is allowed once, and the session takes the new title", async () => {
    const page = await openPage(browser, appUrl);
    const dialog = await approvalRound(page, "mk-allow", "Allowed title");
    expect(await dialog.textContent()).toContain("Rename session");
    expect(await dialog.textContent()).toContain("Allowed title");
    expect(await page.getByTestId("composer-busy").textContent()).toContain("approval");
    await shot(page, "approval-dialog");
    await dialog.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => lastAnswer(page)).toContain("Done with mk-allow.");
    expect(await page.getByTestId("tool-card").getAttribute("data-phase")).toBe("done");
    await expect.poll(() => page.getByTestId("session-list").textContent()).toContain("Allowed title");
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it("tells the model when a tool is denied", async () => {
    const page = await openPage(browser, appUrl);
    const dialog = await approvalRound(page, "mk-deny", "Never this");
    await dialog.getByRole("button", { name: "Deny" }).click();
    await dialog.getByRole("textbox").fill("keep the old name");
    await dialog.getByRole("button", { name: "Deny" }).click();
    await expect.poll(() => lastAnswer(page)).toContain("Done with mk-deny.");
    expect(await page.getByTestId("tool-card").getAttribute("data-phase")).toBe("denied");
    expect(await page.getByTestId("session-list").textContent()).not.toContain("Never this");
    await page.close();
  });

  it("validates an edited input against the tool's schema, then runs with it", async () => {
    const page = await openPage(browser, appUrl);
    const dialog = await approvalRound(page, "mk-edit", "Draft title");
    await dialog.getByRole("button", { name: "Edit input" }).click();
    const field = dialog.getByLabel(/title/);
    await field.fill("   ");
    await dialog.getByRole("button", { name: "Run with edited input" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("title");
    await field.fill("Edited title");
    await dialog.getByRole("button", { name: "Run with edited input" }).click();
    await expect.poll(() => lastAnswer(page)).toContain("Done with mk-edit.");
    await expect.poll(() => page.getByTestId("session-list").textContent()).toContain("Edited title");
    await page.close();
  });

  it("says an edited input's schema problem in Chinese in the Chinese UI", async () => {
    const page = await openPage(browser, appUrl);
    await page.getByRole("button", { name: "中文" }).click();
    const dialog = await approvalRound(page, "mk-zhedit", "草稿标题");
    await dialog.getByRole("button", { name: "修改输入" }).click();
    await dialog.getByLabel(/title/).fill("   ");
    await dialog.getByRole("button", { name: "用修改后的输入运行" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("输入不符合工具要求：");
    const alert = (await dialog.getByRole("alert").textContent()) ?? "";
    expect(alert).toContain("title: 数值过小"); // zod's zh-CN locale on the same issue
    expect(alert).not.toMatch(/Too small|expected/i);
    await page.close();
  });

  it("keeps a pending approval across a reload", async () => {
    const page = await openPage(browser, appUrl);
    await approvalRound(page, "mk-approval-reload", "After reload");
    await page.reload();
    const dialog = page.getByTestId("approval-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("After reload");
    await dialog.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => lastAnswer(page)).toContain("Done with mk-approval-reload.");
    expect(await page.getByTestId("tool-card").count()).toBe(1);
    await page.close();
  });

  it("stops a running turn", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-stop", [{ text: words("c", 200).join(" "), chunkDelayMs: 40, chunkSize: 4 }]);
    await startChat(page, "write a long essay mk-stop");
    await expect.poll(() => lastAnswer(page), { interval: 50 }).toContain("c000");
    await page.getByTestId("stop").click();
    await page.getByTestId("turn-cancelled").waitFor();
    const after = await lastAnswer(page);
    expect(after).not.toContain("c199");
    expect(await page.getByTestId("stop").count()).toBe(0);
    await page.getByTestId("composer").fill("next");
    expect(await page.getByTestId("send").isEnabled()).toBe(true);
    await shot(page, "chat-cancelled");
    await page.close();
  });

  it("resumes a running turn after a reload, showing every word exactly once", async () => {
    const page = await openPage(browser, appUrl);
    const all = words("r", 60);
    await script(modelUrl, "mk-reload", [{ text: all.join(" "), chunkDelayMs: 30, chunkSize: 5 }]);
    const id = await startChat(page, "count slowly mk-reload");
    await expect.poll(() => lastAnswer(page), { interval: 50 }).toContain("r005");
    await page.reload();
    expect(page.url()).toContain(id);
    await expect.poll(() => lastAnswer(page), { timeout: 15_000 }).toContain("r059");
    await turnSettled(page);
    const answer = await lastAnswer(page);
    for (const w of all) expect(count(answer, w), w).toBe(1);
    expect(await page.getByTestId("assistant-message").count()).toBe(1);
    expect(await page.getByTestId("user-message").count()).toBe(1);
    await page.close();
  });

  it("notes a retry quietly and answers after it", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-retry", [{ status: 503 }, { text: "Recovered after a retry." }]);
    await startChat(page, "answer after a hiccup mk-retry");
    await expect.poll(() => lastAnswer(page)).toContain("Recovered after a retry.");
    expect(await page.getByTestId("inline-note").first().textContent()).toContain("retrying");
    await page.close();
  });

  it("shows an error's diagnosis with a retry that works", async () => {
    const page = await openPage(browser, appUrl);
    await script(modelUrl, "mk-fail", [{ status: 400, body: { error: { message: "context too long for scripted" } } }]);
    await startChat(page, "this one fails mk-fail");
    const error = page.getByTestId("turn-error");
    await error.waitFor();
    expect((await error.textContent())?.length).toBeGreaterThan(20);
    await shot(page, "chat-error");
    await script(modelUrl, "mk-fail", [{ text: "Second time lucky." }]);
    await error.getByTestId("retry").click();
    await expect.poll(() => lastAnswer(page)).toContain("Second time lucky.");
    expect(await page.getByTestId("user-message").count()).toBe(2);
    await page.close();
  });
});
