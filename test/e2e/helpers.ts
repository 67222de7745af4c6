/**
 * Shared steps of the e2e tests: scripting the model, opening the app (a language, a width), calling
 * its API, starting a chat, sending a message and waiting for the turn to settle, screenshots, and the
 * check for English left on the Chinese UI.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
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

/**
 * The app at `url` in a fresh context with the UI language stored (`lang`, default en) and a viewport
 * `width` wide (default 1280), or in `context` when given; records page errors.
 */
export async function openApp(
  browser: Browser,
  url: string,
  o: { lang?: "zh" | "en"; width?: number; context?: BrowserContext; acceptDownloads?: boolean } = {},
): Promise<Page & { errors: string[] }> {
  const lang = o.lang ?? "en";
  const ctx =
    o.context ??
    (await browser.newContext({
      viewport: { width: o.width ?? 1280, height: 860 },
      locale: lang === "zh" ? "zh-CN" : "en-US",
      ...(o.acceptDownloads ? { acceptDownloads: true } : {}),
    }));
  await ctx.addInitScript((l) => localStorage.setItem("wyckoff-edge.lang", l), lang);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  return Object.assign(page, { errors });
}

/** JSON from the app's API: GET, or POST `body` as JSON; throws on a non-2xx answer. */
export async function api(base: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Types `text` into the composer and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByTestId("composer");
  await box.fill(text);
  await box.press("Enter");
}

/**
 * Types a first message on the home page and waits for its chat page (waits with `waitFor`, not
 * `expect.poll`, so hooks can use it too).
 */
export async function startChat(page: Page, text: string): Promise<string> {
  await send(page, text);
  await page.waitForURL(/\/c\/s_/);
  await page.getByTestId("user-message").first().waitFor();
  return new URL(page.url()).pathname.slice(3);
}

/** Waits until no turn runs in the page (the composer's busy line is gone); `timeout` in ms. */
export async function turnSettled(page: Page, timeout?: number): Promise<void> {
  await expect.poll(() => page.getByTestId("composer-busy").count(), timeout ? { timeout } : {}).toBe(0);
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

/** A screenshot saver into test/.reports/<dir>/ (`fullPage` for whole-page shots). */
export function screenshotsIn(
  dir: string,
  o: { fullPage?: boolean } = {},
): (page: Page, name: string) => Promise<void> {
  const shots = path.resolve(import.meta.dirname, "../.reports", dir);
  return async (page, name) => {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: o.fullPage ?? false });
  };
}

/**
 * English left in Chinese text: two English words in a row, once what is not prose is taken out —
 * codes and ids (SIM.0002, task_…, SH.600000), regimes and event names in capitals, tool names in
 * snake_case, units and model names.
 */
export function englishLeft(text: string): string[] {
  const cleaned = text
    .replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, "")
    .replace(/\b[A-Z][A-Z0-9_.]+\b/g, "")
    .replace(/\b(?:ms|KB|MB|wyckoff-edge|offline-rules|Markdown|JSON)\b/g, "");
  return [...cleaned.matchAll(/\b[A-Za-z]{2,}\s+[A-Za-z]{2,}\b/g)].map((m) => m[0]);
}
