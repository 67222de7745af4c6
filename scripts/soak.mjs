/**
 * `npm run soak` (`-- --short` for the quick scale `npm test` also runs): the fault and soak suite
 * (test/integration/soak.test.ts) in workerd against the scripted model on loopback — nothing leaves
 * the machine. The full scale has 80 resumed turns, the whole route and MCP fuzz and a 10,000-turn
 * session. Bounded: fixed counts, and the run is stopped after 20 minutes. Prints the figures
 * (lost/duplicated events, 5xx count, largest stored row, latest-page read p50/p95) and merges them
 * into bench/results.json (read-modify-write: other figures there are kept).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OFFLINE_WRANGLER_ENV } from "./wrangler-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const scale = process.argv.includes("--short") ? "short" : "full";
const run = spawnSync(
  path.join(root, "node_modules", ".bin", "vitest"),
  ["run", "--project", "workers", "test/integration/soak.test.ts", "--silent=false"],
  {
    cwd: root,
    env: { ...process.env, ...OFFLINE_WRANGLER_ENV, SOAK_SCALE: scale },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 20 * 60 * 1000,
  },
);
const out = `${run.stdout ?? ""}\n${run.stderr ?? ""}`;
const line = out.split("\n").find((l) => l.includes("SOAK_FIGURES "));
if (!line) {
  process.stdout.write(
    out
      .split("\n")
      .filter((l) => /✓|×|FAIL|Error/.test(l))
      .join("\n"),
  );
  console.error(`\nsoak: no figures (vitest exit ${run.status}${run.signal ? `, ${run.signal}` : ""})`);
  process.exit(1);
}
const figures = JSON.parse(line.slice(line.indexOf("SOAK_FIGURES ") + 13));
const META = {
  soak_lost_events: ["resumed turns: events lost", "events", 0],
  soak_duplicated_events: ["resumed turns: events duplicated", "events", 0],
  soak_5xx: ["fuzz: 5xx answers", "responses", 0],
  soak_errors_outside_envelope: ["fuzz: errors outside the envelope", "responses", 0],
  soak_fault_unclean: ["faults: turns not ended cleanly", "turns", 0],
  soak_fault_next_failed: ["faults: next message failed", "turns", 0],
  soak_largest_row_bytes: ["largest stored row", "bytes", 1024 * 1024],
  soak_read_latest_page_p50_ms: ["latest page of a long session, p50", "ms", 50],
  soak_read_latest_page_p95_ms: ["latest page of a long session, p95", "ms", undefined],
  soak_read_empty_session_p50_ms: ["same route, empty session (this machine's floor), p50", "ms", undefined],
  soak_read_5_parallel_ms: ["5 parallel latest-page reads of the long session, all done", "ms", undefined],
  soak_session_turns: ["turns in the long session", "turns", undefined],
};
const metrics = Object.entries(figures)
  .filter(([id, v]) => id.startsWith("soak_") && typeof v === "number")
  .map(([id, value]) => {
    const [name, unit, goal] = META[id] ?? [id.replace(/^soak_/, "").replaceAll("_", " "), "count", undefined];
    return { id, name: `soak (${figures.scale}): ${name}`, value, unit, ...(goal !== undefined ? { goal } : {}) };
  });
for (const m of metrics)
  console.log(
    `${m.name.padEnd(60)} ${String(m.value).padStart(10)} ${m.unit}${m.goal !== undefined ? ` (goal ≤ ${m.goal})` : ""}`,
  );
const file = path.join(root, "bench", "results.json");
const prior = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { metrics: [] };
const kept = (prior.metrics ?? []).filter((m) => !metrics.some((n) => n.id === m.id));
writeFileSync(file, `${JSON.stringify({ ...prior, metrics: [...kept, ...metrics] }, null, 2)}\n`);
console.log(`soak: ${metrics.length} figures merged into bench/results.json`);
process.exit(run.status === 0 ? 0 : 1);
