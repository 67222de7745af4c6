/** Launches Debian's Chromium through playwright-core (no browser downloads here). */
import { execFileSync } from "node:child_process";
import { chromium, type Browser } from "playwright-core";

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`])
        .toString()
        .trim();
    } catch {
      // try the next name
    }
  }
  throw new Error("Chromium not found: install it with `apt-get install -y chromium` (or set CHROMIUM_PATH)");
}

/** Starts a headless Chromium (playwright gives it a fresh temporary profile) with no background networking. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
