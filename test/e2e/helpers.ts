/** Shared steps of the e2e tests: scripting the model, starting a chat, saving screenshots. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";

const SHOTS = path.resolve(import.meta.dirname, "screenshots");

/** Appends scripted model responses to the queue of `key` (a marker the test's message contains). */
export async function script(modelUrl: string, key: string, responses: unknown[]): Promise<void> {
  const res = await fetch(`${modelUrl}/__script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, responses }),
  });
  if (!res.ok) throw new Error(`scripting the model failed: ${res.status} ${await res.text()}`);
}

/** A fresh page that records page errors (checked by `noPageErrors`). */
export async function openPage(browser: Browser, url: string): Promise<Page & { errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  return Object.assign(page, { errors });
}

/** Types a first message on the home page and waits for its chat page. */
export async function startChat(page: Page, text: string): Promise<string> {
  const box = page.getByTestId("composer");
  await box.fill(text);
  await box.press("Enter");
  await page.waitForURL(/\/c\/s_/);
  await expect.poll(() => page.getByTestId("user-message").count()).toBeGreaterThan(0);
  return new URL(page.url()).pathname.slice(3);
}

/** Text of the last assistant message. */
export function lastAnswer(page: Page): Promise<string> {
  return page.getByTestId("assistant-message").last().innerText();
}

/** Saves a screenshot to test/e2e/screenshots (gitignored) for a person to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}
