/**
 * `npm start`: build the reading room, apply local D1 migrations, load bundled offline data, then
 * serve everything with `wrangler dev` on 127.0.0.1:$PORT (default 8787). Settings in the process
 * environment (CONTRACTS.md) are forwarded to the worker. Ctrl+C stops wrangler and workerd together.
 *
 * Options (environment): PORT; WYCKOFF_STATE_DIR (local D1/DO/R2 state, default .wrangler/state);
 * WYCKOFF_SKIP_BUILD=1 (reuse dist/client).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OFFLINE_WRANGLER_ENV, SETTINGS } from "./wrangler-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.PORT ?? "8787";
const stateDir = path.resolve(root, process.env.WYCKOFF_STATE_DIR ?? ".wrangler/state");
const env = { ...process.env, ...OFFLINE_WRANGLER_ENV };
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function step(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) {
    console.error(`[start] ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`[start] ${label} (${Date.now() - started} ms)`);
}

if (process.env.WYCKOFF_SKIP_BUILD !== "1")
  step("built web/ into dist/client", bin("vite"), ["build", "--logLevel", "warn"]);
step("applied local D1 migrations", bin("wrangler"), [
  "d1",
  "migrations",
  "apply",
  "DB",
  "--local",
  "--persist-to",
  stateDir,
]);

// Bundled offline data: idempotent SQL files (INSERT OR REPLACE) under data/seed/, applied in order.
// The market bundle (S&P 500 + simulated A-shares) is generated, deterministically, on every start.
step("built the offline market bundle", process.execPath, [path.join(root, "scripts", "build-offline-data.mjs")]);
const seedDir = path.join(root, "data", "seed");
if (existsSync(seedDir)) {
  for (const file of readdirSync(seedDir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    step(`loaded offline data ${file}`, bin("wrangler"), [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      stateDir,
      "--file",
      path.join(seedDir, file),
    ]);
  }
}

const vars = SETTINGS.filter((name) => process.env[name] !== undefined && process.env[name] !== "").flatMap((name) => [
  "--var",
  `${name}:${process.env[name]}`,
]);
const dev = spawn(
  bin("wrangler"),
  [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    port,
    "--persist-to",
    stateDir,
    "--show-interactive-dev-session=false",
    ...vars,
  ],
  { cwd: root, env, stdio: ["ignore", "inherit", "inherit"], detached: true },
);
console.log(`[start] serving the reading room at http://127.0.0.1:${port}`);

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  try {
    process.kill(-dev.pid, signal); // the whole group: wrangler and its workerd
  } catch {
    // already gone
  }
  setTimeout(() => {
    try {
      process.kill(-dev.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000).unref();
}
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGHUP", () => stop("SIGTERM"));
dev.on("exit", (code, signal) => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));
