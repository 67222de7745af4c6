/**
 * Starts the real app the way a person does (`npm start`'s script) twice, on free loopback ports
 * with fresh local state: `appUrl` with no model keys (the offline rule model, as on a fresh clone)
 * and `scriptedAppUrl` pointed at a scripted OpenAI-compatible model (`modelUrl`, scripts pushed
 * over HTTP by the tests; priced through LLM_PRICES so costs show). The second instance starts once
 * the first has built the web app (which it reuses) and brought the shared offline bundle file up to
 * date, so it finds both ready. Teardown stops each whole process group and waits until it is gone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startScriptedModel } from "../support/scripted-model/server";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    scriptedAppUrl: string;
    modelUrl: string;
  }
}

// Readiness, not a budget: the app is waited on while its process lives and prints progress; this cap
// only stops a hung start-up (a start-up that exits fails at once with its output).
const STARTUP_MS = Number(process.env["E2E_STARTUP_MS"] ?? 900_000);
const MODEL_KEY = "e2e-scripted-key";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

interface App {
  url: string;
  child: ChildProcess;
  stateDir: string;
  output: () => string;
  exited: () => string | null;
  /** Resolves when the start script's output contains `text`. */
  printed: (text: string) => Promise<void>;
}

async function launch(root: string, extra: NodeJS.ProcessEnv): Promise<App> {
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), "wyckoff-e2e-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), WYCKOFF_STATE_DIR: stateDir };
  for (const key of Object.keys(env)) if (key.startsWith("LLM_")) delete env[key];
  Object.assign(env, extra);
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  const onData = (d: Buffer) => {
    output += d.toString();
    for (const w of waiters.filter((w) => output.includes(w.text))) {
      w.resolve();
      waiters.splice(waiters.indexOf(w), 1);
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  let exitReason: string | null = null;
  child.on("exit", (code, signal) => (exitReason = `exit ${code ?? signal}\n${output.slice(-4000)}`));
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stateDir,
    output: () => output,
    exited: () => exitReason,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        if (output.includes(text)) return resolve();
        waiters.push({ text, resolve });
        child.once("exit", () => reject(new Error(`npm start exited before printing "${text}": ${exitReason ?? ""}`)));
      }),
  };
}

async function waitForHealth(app: App, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = app.exited();
    if (why) throw new Error(`npm start exited before serving: ${why}`);
    try {
      const res = await fetch(`${app.url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`npm start did not serve ${app.url}/api/health within ${timeoutMs} ms\n${app.output().slice(-4000)}`);
}

/** Resolves when the child has exited, or after `ms` (false then). */
function exitWithin(app: App, ms: number): Promise<boolean> {
  if (app.exited() !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    app.child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stop(app: App): Promise<void> {
  const pid = app.child.pid;
  if (pid && app.exited() === null) {
    // The start script stops its wrangler group on SIGTERM (SIGKILL after 5 s); if it is itself stuck,
    // kill its group after a generous wait.
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // already gone
    }
    if (!(await exitWithin(app, 30_000))) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
      await exitWithin(app, 5_000);
    }
  }
  // Let go of the output pipes (a straggling grandchild could hold them open and keep vitest alive).
  app.child.stdout?.destroy();
  app.child.stderr?.destroy();
  app.child.unref();
  rmSync(app.stateDir, { recursive: true, force: true });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, "../..");
  const model = await startScriptedModel({ apiKey: MODEL_KEY });
  const apps: App[] = [];
  const teardown = async () => {
    await Promise.all(apps.map(stop));
    await model.close();
  };
  try {
    const offline = await launch(root, {});
    apps.push(offline);
    // The second instance reuses the first one's web build and offline bundle file: wait for both.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([offline.printed("[start] web:"), offline.printed("[start] offline data:")]),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("offline app did not build its web app and data")), STARTUP_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    const scripted = await launch(root, {
      WYCKOFF_SKIP_BUILD: "1",
      LLM_BASE_URL: model.url,
      LLM_MODEL: "scripted",
      LLM_API_KEY: MODEL_KEY,
      // prices per 1M tokens, so the reading room has a session cost and a usage cost to show
      LLM_PRICES: JSON.stringify({ scripted: { input: 2, output: 8 } }),
    });
    apps.push(scripted);
    await Promise.all([waitForHealth(offline, STARTUP_MS), waitForHealth(scripted, STARTUP_MS)]);
    // The start script's one-line summary (phase timings) of each instance, for the run's log.
    await Promise.all([offline.printed("[start] serving"), scripted.printed("[start] serving")]);
    for (const app of [offline, scripted])
      console.log(
        `[e2e] ${
          app
            .output()
            .split("\n")
            .find((l) => l.startsWith("[start] serving")) ?? app.url
        }`,
      );
    project.provide("appUrl", offline.url);
    project.provide("scriptedAppUrl", scripted.url);
    project.provide("modelUrl", model.url.replace(/\/v1\/?$/, ""));
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
