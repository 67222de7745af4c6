/**
 * `npm run start:timings`: measures `npm start` the way a newcomer meets it — a fresh clone of this
 * checkout (committed state) in a temporary directory with node_modules hard-linked, then the first
 * start until the reading room answers, a restart once the first start has written its worker
 * bundle, and a second restart; for each: wall seconds, load average before and after, log lines,
 * and start.mjs's own summary line (its per-step and wrangler-phase split is the load-independent
 * part). Run `stress --cpu 2` beside it for the loaded figure. PORT (default 8790) picks the port.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.PORT ?? "8790";
const dir = mkdtempSync(path.join(tmpdir(), "wyckoff-start-"));
const clone = path.join(dir, "clone");
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

spawnSync("git", ["clone", "-q", root, clone], { stdio: "inherit" });
// Hard links: no copy of ~1 GB, and nothing in the original is written (start.mjs writes under .wrangler/ and dist/).
if (spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(clone, "node_modules")]).status !== 0)
  throw new Error("could not hard-link node_modules into the clone (cp -al)");

/** One `npm start`: until `/` answers with the page, then until `until` shows in the log; then stopped. */
async function once(name, until) {
  const before = load();
  const t0 = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: clone,
    env: { ...process.env, PORT: port },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  let exited = false;
  child.on("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`npm start exited:\n${log}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      if (res.ok && /<html/i.test(await res.text())) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  const lines = log.trimEnd().split("\n").length;
  const deadline = Date.now() + 300_000;
  while (until && !until.test(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  process.kill(-child.pid, "SIGTERM");
  await new Promise((r) => (exited ? r() : child.on("exit", r)));
  const summary = log.split("\n").find((l) => l.startsWith("[start] serving")) ?? "(no summary line)";
  console.log(`${name}: ${seconds.toFixed(1)} s, ${lines} log lines, load ${before} → ${load()}\n  ${summary}`);
}

try {
  await once("first start", /\[start\] worker: /);
  await once("restart", /\[start\] serving/);
  await once("restart 2", /\[start\] serving/);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
