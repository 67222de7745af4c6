/**
 * Starts the real app the way a person does (`npm start`'s script) on a free loopback port with
 * fresh local state and no model keys, waits for /api/health, and stops the whole process group.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitForHealth(url: string, exited: () => string | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`npm start exited before serving: ${why}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm start did not serve ${url}/api/health within ${timeoutMs} ms`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, "../..");
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), "wyckoff-e2e-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), WYCKOFF_STATE_DIR: stateDir };
  for (const key of Object.keys(env)) if (key.startsWith("LLM_")) delete env[key]; // the offline model, as on a fresh clone
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  let exitReason: string | null = null;
  child.on("exit", (code, signal) => (exitReason = `exit ${code ?? signal}\n${output.slice(-4000)}`));

  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, () => exitReason, 120_000);
  project.provide("appUrl", url);

  return async () => {
    if (child.pid && exitReason === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
}
