/**
 * `npm run bench`: runs bench/**\/*.bench.ts (vitest, Node), adds the size figures measured here
 * (worker bundle and web first load, gzip), prints a table with goals and writes bench/results.json.
 * Figures are reported, never asserted: these machines are shared and noisy.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { OFFLINE_WRANGLER_ENV } from "./wrangler-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const work = mkdtempSync(path.join(tmpdir(), "wyckoff-bench-"));
const records = path.join(work, "records.jsonl");
const env = { ...process.env, ...OFFLINE_WRANGLER_ENV, BENCH_RECORDS: records };

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  return result.status ?? 1;
}

function gzipKb(files) {
  return Math.round((files.reduce((sum, f) => sum + gzipSync(readFileSync(f)).length, 0) / 1024) * 10) / 10;
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

const metrics = [];
const failures = [];

if (run(bin("vitest"), ["run", "--config", "bench/vitest.config.ts", "--passWithNoTests"]) !== 0)
  failures.push("bench files");
if (existsSync(records)) {
  for (const line of readFileSync(records, "utf8").split("\n")) if (line.trim()) metrics.push(JSON.parse(line));
}

// What a browser downloads on first load: index.html plus the JS/CSS it references.
if (run(bin("vite"), ["build", "--logLevel", "warn", "--manifest"]) === 0) {
  const dist = path.join(root, "dist", "client");
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const refs = [...html.matchAll(/(?:src|href)="\/?([^"]+\.(?:js|css))"/g)].map((m) => path.join(dist, m[1]));
  metrics.push({
    id: "web_first_load_gzip_kb",
    name: "web first load (gzip)",
    value: gzipKb([path.join(dist, "index.html"), ...refs]),
    unit: "KiB",
    goal: 250,
  });
  // Any answer the reading room renders pulls in the lazy markdown renderer: first load plus that
  // chunk and what it imports (Vite's manifest), each file once.
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8"));
  const withAnswer = new Set([path.join(dist, "index.html"), ...refs]);
  const add = (key) => {
    const chunk = manifest[key];
    if (!chunk || withAnswer.has(path.join(dist, chunk.file))) return;
    withAnswer.add(path.join(dist, chunk.file));
    for (const css of chunk.css ?? []) withAnswer.add(path.join(dist, css));
    for (const imported of chunk.imports ?? []) add(imported);
  };
  const renderer = Object.keys(manifest).find((k) => k.endsWith("components/markdown-renderer.tsx"));
  if (renderer) {
    add(renderer);
    metrics.push({
      id: "web_first_load_answer_gzip_kb",
      name: "web first load + one rendered answer (markdown renderer) (gzip)",
      value: gzipKb([...withAnswer]),
      unit: "KiB",
      goal: 250,
    });
  } else failures.push("web: no markdown renderer chunk in the manifest");
} else failures.push("vite build");

// Worker bundle as deployed (wrangler's own bundler, no upload). After the web build: the deploy
// serves dist/client as static assets and refuses to run without it (a fresh clone has none).
const out = path.join(work, "worker");
const metafile = path.join(work, "worker-meta.json");
if (run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", out, "--metafile", metafile]) === 0) {
  const files = walk(out).filter((f) => /\.(m?js|wasm)$/.test(f));
  metrics.push({
    id: "worker_bundle_gzip_kb",
    name: "worker bundle (gzip)",
    value: gzipKb(files),
    unit: "KiB",
    goal: 750,
  });
  // What each package puts into the bundle (esbuild's metafile): the figure must include the
  // Anthropic provider (issue 19), so its share is reported; a bundle without it is a failed step.
  const meta = JSON.parse(readFileSync(metafile, "utf8"));
  let anthropic = 0;
  for (const o of Object.values(meta.outputs ?? {}))
    for (const [input, v] of Object.entries(o.inputs ?? {}))
      if (input.includes("node_modules/@ai-sdk/anthropic/")) anthropic += v.bytesInOutput;
  metrics.push({
    id: "worker_bundle_anthropic_kb",
    name: "worker bundle: @ai-sdk/anthropic (minified, before gzip)",
    value: Math.round((anthropic / 1024) * 10) / 10,
    unit: "KiB",
  });
  if (anthropic === 0) failures.push("the worker bundle has no @ai-sdk/anthropic");
} else failures.push("wrangler deploy --dry-run");

// The table: one row per figure — median (the headline), mean and p90 for per-call figures, the
// goal and how far from it, the growth against the figure's smallest size — then one line per
// figure saying exactly what its clock spans.
const fmt = (x) => (x === undefined ? "" : Number.isInteger(x) ? String(x) : x.toPrecision(4).replace(/\.?0+$/, ""));
const columns = ["id", "median/value", "mean", "p90", "n", "unit", "goal", "vs goal", "growth"];
const rows = metrics.map((m) => [
  m.id,
  fmt(m.value),
  fmt(m.mean),
  fmt(m.p90),
  m.n === undefined ? "" : String(m.n),
  m.unit,
  m.goal === undefined ? "" : `≤ ${m.goal}`,
  m.goal === undefined ? "" : `${(m.value / m.goal).toFixed(2)}×`,
  m.growth
    ? `${m.growth.ratio.toFixed(2)}× vs ${m.growth.vs}`
    : m.ratio === undefined
      ? ""
      : `ratio ${m.ratio.toFixed(3)}`,
]);
const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i].length)));
const line = (cells) =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
console.log("");
console.log(line(columns));
console.log(`|${widths.map((w, i) => (i === 0 ? ":" : "-").padEnd(w + 1, "-") + (i === 0 ? "-" : ":")).join("|")}|`);
for (const r of rows) console.log(line(r));
console.log("");
console.log("What each figure times:");
for (const m of metrics) console.log(`- ${m.id}: ${m.timed ?? m.name}`);
const resultsFile = path.join(root, "bench", "results.json");
// Other figures (e.g. `truth` from `npm run truth`) live in the same file: keep them.
// Read-modify-write: figures measured elsewhere (`npm run soak`'s, `truth`) are kept; ours replace theirs by id.
const previous = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, "utf8")) : {};
const kept = (previous.metrics ?? []).filter((m) => !metrics.some((n) => n.id === m.id));
writeFileSync(resultsFile, `${JSON.stringify({ ...previous, metrics: [...kept, ...metrics] }, null, 2)}\n`);
console.log(`wrote bench/results.json (${metrics.length} figures)`);
rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`bench steps failed: ${failures.join(", ")}`);
  process.exit(1);
}
