/**
 * A person's own model in Chromium against the scripted-model app: they save a base URL, model and API
 * key in Settings → Model; the key shows only as "set · ends …"; it appears in no response body, no
 * page and no log line; and their next turn reaches their base URL with their model and key.
 */
import { readFileSync } from "node:fs";
import type { Browser, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { E2E_USER_MODEL_KEY } from "./global-setup";
import { lastAnswer, openPage, script, shot, startChat } from "./helpers";

describe("Settings → Model (scripted model)", () => {
  let browser: Browser;
  const appUrl = inject("scriptedAppUrl");
  const modelUrl = inject("modelUrl");
  const appLog = inject("scriptedAppLog");

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await fetch(`${appUrl}/api/settings/model`, { method: "DELETE" });
    await browser?.close();
  });

  it("saves the user's own model; the key never comes back; their turn reaches their base URL", async () => {
    const page = await openPage(browser, `${appUrl}/settings`);
    const bodies: Promise<string>[] = [];
    page.on("response", (res: Response) => {
      if ((res.headers()["content-type"] ?? "").includes("event-stream")) return;
      bodies.push(res.text().catch(() => ""));
    });
    const section = page.getByTestId("model-settings");
    await section.waitFor();
    await expect
      .poll(() => page.getByTestId("model-in-use").textContent(), { timeout: 30_000 })
      .toContain("default model: scripted");
    // A private address is refused with the server's reason.
    await page.getByTestId("model-base-url").fill("http://10.0.0.8/v1");
    await page.getByTestId("model-name").fill("e2e-own-model");
    await page.getByTestId("model-save").click();
    await expect
      .poll(() => page.getByTestId("model-settings-error").textContent(), { timeout: 30_000 })
      .toContain("10.0.0.8 is a private address");
    // The scripted model on loopback (allowed in AUTH_MODE=local), with the person's key.
    await page.getByTestId("model-base-url").fill(`${modelUrl}/v1`);
    await page.getByTestId("model-api-key").fill(E2E_USER_MODEL_KEY);
    await page.getByTestId("model-save").click();
    await expect
      .poll(() => page.getByTestId("model-key-status").textContent(), { timeout: 30_000 })
      .toBe("set · ends …7f3q");
    await expect
      .poll(() => page.getByTestId("model-in-use").textContent(), { timeout: 30_000 })
      .toContain("e2e-own-model");
    expect(await page.getByTestId("model-api-key").inputValue()).toBe("");
    await shot(page, "model-settings");
    // A reload shows the same state; the key is in no page.
    await page.reload();
    await expect
      .poll(() => page.getByTestId("model-key-status").textContent(), { timeout: 30_000 })
      .toBe("set · ends …7f3q");
    expect(await page.content()).not.toContain(E2E_USER_MODEL_KEY);

    // The next turn goes to the person's endpoint with their model and key.
    const marker = `own-model-${Date.now()}`;
    await script(modelUrl, marker, [{ text: "Answered by your own model." }]);
    await page.goto(appUrl);
    await startChat(page, `hello ${marker}`);
    await expect.poll(() => lastAnswer(page), { timeout: 60_000 }).toContain("Answered by your own model.");
    const requests = (await (await fetch(`${modelUrl}/__requests?key=${marker}`)).json()) as {
      headers: Record<string, string>;
      body: { model: string };
    }[];
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.model).toBe("e2e-own-model");
    expect(requests[0]?.headers["authorization"]).toBe(`Bearer ${E2E_USER_MODEL_KEY}`);
    expect(await page.content()).not.toContain(E2E_USER_MODEL_KEY);

    // No response body the browser received and no log line of the app carries the key.
    const received = await Promise.all(bodies);
    expect(received.length).toBeGreaterThan(3);
    for (const body of received) expect(body).not.toContain(E2E_USER_MODEL_KEY);
    const session = await (await fetch(`${appUrl}/api/sessions/${new URL(page.url()).pathname.slice(3)}`)).text();
    expect(session).toContain("Answered by your own model.");
    expect(session).not.toContain(E2E_USER_MODEL_KEY);
    const log = readFileSync(appLog, "utf8");
    expect(log).toContain("model_settings_saved");
    expect(log).not.toContain(E2E_USER_MODEL_KEY);
    expect(page.errors).toEqual([]);
    // A hang cap, not a budget: a loaded machine needs a while for settings, a turn and the log.
  }, 180_000);
});
