/**
 * `npm start`: the reading room and API on 127.0.0.1:$PORT (default 8787), offline by default. Settings
 * in the process environment (CONTRACTS.md) are forwarded to the worker. Ctrl+C stops wrangler and
 * workerd together. Each step is skipped when its inputs are unchanged, so a restart only starts
 * `wrangler dev`:
 *   web      `vite build` of web/ into dist/client — skipped while every module of the last build
 *            (recorded in dist/.client-build.json) is unchanged;
 *   data     scripts/build-offline-data.mjs → data/seed/market-offline.sql — skipped while every file
 *            the generator loaded or read last time is unchanged (data/seed/market-offline.sql.inputs.json);
 *   D1       one workerd (wrangler's own miniflare) applies the pending migrations in one batch,
 *            recorded in `d1_migrations` exactly as `wrangler d1 migrations apply` records them, then
 *            loads data/seed/*.sql — skipped while wrangler.toml, migrations/ and the seed files hash
 *            as recorded in <state>/v3/d1/wyckoff-start.json (delete it to force a reload);
 *   serve    `wrangler dev` (warnings and errors only), ready when /api/health answers and D1 is set
 *            up. When .wrangler/dev-bundle holds a bundle whose inputs (its esbuild metafile, recorded
 *            in .wrangler/dev-bundle/.inputs.json, plus wrangler.toml) are unchanged, wrangler dev serves
 *            it with --no-bundle (no bundling on a restart; worker edits show at the next start, like
 *            web edits); else wrangler dev bundles and watches as usual, and once the app is up a
 *            low-priority `wrangler deploy --dry-run` writes that bundle for the next start
 *            (WYCKOFF_DEV_BUNDLE=0: never).
 * web runs alongside data → D1. `wrangler dev` starts as soon as the web is built — on a fresh state
 * (no local database yet: nothing can have scheduled work that reads D1) alongside data → D1, since its
 * boot (CLI, bundle, workerd) touches no database and the ready line waits for D1; on an existing
 * state after D1. Each step prints one line; the last line is the summary at ready, with wrangler
 * dev's own phases (CLI start and config, bundle, workerd start, first answer) from its output.
 * Failures print the failing step's whole output.
 *
 * Options (environment): PORT; WYCKOFF_STATE_DIR (local D1/DO/R2 state, default .wrangler/state);
 * WYCKOFF_SKIP_BUILD=1 (reuse dist/client as it is); WYCKOFF_SERIAL_START=1 (wrangler dev only after
 * every step, as before).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, enableCompileCache } from "node:module";
import { createInterface } from "node:readline";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { filesKey, upToDate, writeRecord } from "./input-hash.mjs";
import { OFFLINE_WRANGLER_ENV, SETTINGS } from "./wrangler-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.PORT ?? "8787";
const stateDir = path.resolve(root, process.env.WYCKOFF_STATE_DIR ?? ".wrangler/state");
const env = { ...process.env, ...OFFLINE_WRANGLER_ENV };
// wrangler dev's registry is machine-wide and keyed by the worker's name (the last app started owns
// the entry, queue consumers included); apps started side by side (the e2e suite starts two, other
// checkouts more) stay out of each other's way with one registry per state dir.
env.WRANGLER_REGISTRY_PATH ??= path.join(stateDir, "dev-registry");
// Node's on-disk compile cache (Node ≥ 22.1) for the wrangler CLI's large bundle (and vite, wrangler
// and miniflare imported here): a restart loads cached code. In the checkout's .wrangler/, never in
// node_modules (a hardlinked copy may be shared).
env.NODE_COMPILE_CACHE ??= path.join(root, ".wrangler", "node-compile-cache");
enableCompileCache?.(env.NODE_COMPILE_CACHE);
const started = performance.now();
const timings = [];

const seconds = (ms) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Runs one step, prints `[start] <label>: <outcome> (<time>)` and records it for the summary. */
async function step(label, run) {
  const t0 = performance.now();
  try {
    const outcome = await run();
    const ms = performance.now() - t0;
    timings.push(`${label} ${outcome === "up to date" ? "up to date " : ""}${seconds(ms)}`);
    console.log(`[start] ${label}: ${outcome} (${seconds(ms)})`);
  } catch (error) {
    console.error(`[start] ${label} failed:`);
    console.error(error?.output ?? error);
    process.exit(1);
  }
}

/** Runs a command with its output captured; rejects with the whole output when it fails. */
function run(command, args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      code === 0
        ? resolve(output)
        : reject(Object.assign(new Error(`exit ${code ?? signal}`), { output: `${output}\n(exit ${code ?? signal})` })),
    );
  });
}

// ── web ──────────────────────────────────────────────────────────────────────────────────────────
const distDir = path.join(root, "dist");
const webRecord = path.join(distDir, ".client-build.json");
/** What the build depends on besides its module graph: build-time env and the config files. */
const webExtra = () => ({
  env: Object.entries(process.env)
    .filter(([k]) => k.startsWith("VITE_"))
    .sort(),
});
const webConfigFiles = ["vite.config.ts", "tsconfig.base.json", "tsconfig.web.json", "package.json"].map((f) =>
  path.join(root, f),
);

async function buildWeb() {
  if (process.env.WYCKOFF_SKIP_BUILD === "1") return "reused dist/client (WYCKOFF_SKIP_BUILD=1)";
  if (existsSync(path.join(distDir, "client", "index.html")) && upToDate(root, webRecord, webExtra()))
    return "up to date";
  const { build } = await import("vite");
  let modules = [];
  await build({
    configFile: path.join(root, "vite.config.ts"),
    logLevel: "warn",
    plugins: [
      {
        name: "wyckoff-record-modules",
        generateBundle() {
          modules = [...this.getModuleIds()];
        },
      },
    ],
  });
  const files = modules
    .filter((id) => !id.startsWith("\0"))
    .map((id) => id.split("?")[0])
    .filter((id) => path.isAbsolute(id) && existsSync(id));
  writeRecord(
    root,
    webRecord,
    { files: [...new Set([...files, ...webConfigFiles])].sort(), dirs: [path.join(root, "web")] },
    webExtra(),
  );
  return `built ${files.length} modules into dist/client`;
}

// ── offline data ─────────────────────────────────────────────────────────────────────────────────
const seedDir = path.join(root, "data", "seed");
const bundleFile = path.join(seedDir, "market-offline.sql");
const bundleRecord = `${bundleFile}.inputs.json`;
const dataExtra = { node: process.version };

async function generateData() {
  if (existsSync(bundleFile) && upToDate(root, bundleRecord, dataExtra)) return "up to date";
  mkdirSync(seedDir, { recursive: true });
  const tmp = `${bundleFile}.${process.pid}.tmp`;
  const inputsTmp = `${bundleRecord}.${process.pid}.tmp`;
  try {
    const output = await run(
      process.execPath,
      [
        "--import",
        path.join(root, "scripts", "record-inputs.mjs"),
        path.join(root, "scripts", "build-offline-data.mjs"),
        tmp,
      ],
      { WYCKOFF_RECORD_INPUTS: inputsTmp },
    );
    const inputs = JSON.parse(readFileSync(inputsTmp, "utf8"));
    renameSync(tmp, bundleFile);
    writeRecord(root, bundleRecord, inputs, dataExtra);
    const lines = output
      .trim()
      .replaceAll(path.relative(root, tmp), path.relative(root, bundleFile))
      .split("\n")
      .filter(Boolean);
    return lines.length === 1 ? lines[0].replace(/^\[offline-data\] /, "") : `generated\n${lines.join("\n")}`;
  } finally {
    rmSync(tmp, { force: true });
    rmSync(inputsTmp, { force: true });
  }
}

// ── worker bundle ────────────────────────────────────────────────────────────────────────────────
const wranglerBin = path.join(root, "node_modules", ".bin", "wrangler");
// wrangler's bin only re-spawns node on wrangler-dist/cli.js with --no-warnings: start that directly
// (one Node start fewer; this script already runs on the Node 22 that npm start puts first on PATH).
const wranglerCli = path.join(root, "node_modules", "wrangler", "wrangler-dist", "cli.js");
const prebundle = process.env.WYCKOFF_DEV_BUNDLE !== "0";
const workerDir = path.join(root, ".wrangler", "dev-bundle");
const workerEntry = path.join(workerDir, "index.js");
const workerRecord = path.join(workerDir, ".inputs.json");
const workerExtra = { node: process.version };

/** True when the prebuilt bundle matches its inputs (then wrangler dev serves it without bundling). */
const bundleReady = () =>
  prebundle && existsSync(workerEntry) && upToDate(root, workerRecord, workerExtra) !== undefined;

/**
 * Bundles the worker as `wrangler deploy` does and records the bundle's inputs (its esbuild metafile).
 * Run after the app is up when the bundle is missing or stale, at low priority, for the next start:
 * on the first start wrangler dev bundles by itself (one wrangler CLI start fewer on the way to ready).
 */
async function buildWorker() {
  // One build per checkout at a time (the e2e suite starts two apps from one checkout).
  const lock = `${workerDir}.lock`;
  try {
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { force: true });
    writeFileSync(lock, String(process.pid), { flag: "wx" });
  } catch {
    return "left to the other start building it";
  }
  try {
    return await bundleWorker();
  } finally {
    rmSync(lock, { force: true });
  }
}

async function bundleWorker() {
  const tmp = `${workerDir}.${process.pid}.tmp`;
  const meta = `${tmp}.meta.json`;
  // wrangler checks that the assets directory exists before it builds (the web step fills it).
  mkdirSync(path.join(distDir, "client"), { recursive: true });
  try {
    await run("nice", ["-n", "10", wranglerBin, "deploy", "--dry-run", "--outdir", tmp, "--metafile", meta]);
    const metaWritten = statSync(meta).mtimeMs;
    const inputs = Object.keys(JSON.parse(readFileSync(meta, "utf8")).inputs)
      .map((f) => path.resolve(root, f.split("?")[0]))
      .filter((f) => existsSync(f));
    const own = inputs.filter((f) => !f.split(path.sep).includes("node_modules"));
    // A source edited while it was bundled: record nothing (the next start bundles again).
    if (own.some((f) => statSync(f).mtimeMs > metaWritten)) return "skipped: a source changed while it was bundled";
    rmSync(workerDir, { recursive: true, force: true });
    renameSync(tmp, workerDir);
    writeRecord(
      root,
      workerRecord,
      {
        files: [...new Set([...inputs, ...["wrangler.toml", "package.json"].map((f) => path.join(root, f))])].sort(),
        dirs: [...new Set(own.map((f) => path.dirname(f)))].sort(),
      },
      workerExtra,
    );
    return `bundled ${inputs.length} modules into ${path.relative(root, workerEntry)} for the next start`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(meta, { force: true });
  }
}

// ── local D1 ─────────────────────────────────────────────────────────────────────────────────────
const d1Dir = path.join(stateDir, "v3", "d1");
const d1Marker = path.join(d1Dir, "wyckoff-start.json");
/** Statements per D1 batch are capped by size so a growing bundle never builds one giant request. */
const BATCH_BYTES = 4_000_000;

/**
 * The worker that runs in the set-up workerd: POST a JSON array of SQL statements, get each one's rows.
 * (A plain fetch per batch; miniflare's D1 proxy object dropped large requests after small ones.)
 */
const D1_RUNNER = `export default {
  async fetch(request, env) {
    const statements = await request.json();
    try {
      const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s)));
      return Response.json(results.map((r) => r.results ?? []));
    } catch (error) {
      return new Response(String(error?.cause?.message ?? error?.message ?? error), { status: 500 });
    }
  },
};`;

function sqlFiles(dir) {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".sql"))
        .sort()
        .map((f) => path.join(dir, f))
    : [];
}

function localDatabaseExists() {
  const dir = path.join(d1Dir, "miniflare-D1DatabaseObject");
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
}

function readMarker() {
  try {
    return JSON.parse(readFileSync(d1Marker, "utf8"));
  } catch {
    return undefined;
  }
}

async function setUpD1() {
  const migrationsDir = path.join(root, "migrations");
  const want = {
    wrangler: filesKey([path.join(root, "wrangler.toml")]),
    migrations: filesKey(sqlFiles(migrationsDir)),
    data: filesKey(sqlFiles(seedDir)),
  };
  const have = localDatabaseExists() ? readMarker() : undefined;
  if (have && have.wrangler === want.wrangler && have.migrations === want.migrations && have.data === want.data)
    return "up to date";

  // The same Miniflare wrangler's own `d1 execute --local` uses, on the same persistence layout.
  const wranglerRequire = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
  const { Miniflare, convertV4MiniflareOptions } = wranglerRequire("miniflare");
  const { unstable_readConfig, unstable_splitSqlQuery: split } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(root, "wrangler.toml") }, { hideWarnings: true });
  const database = config.d1_databases.find((d) => d.binding === "DB");
  if (!database) throw new Error("wrangler.toml declares no D1 database bound as DB");
  const table = `"${(database.migrations_table ?? "d1_migrations").replaceAll('"', '""')}"`;
  const migrations = sqlFiles(path.resolve(root, database.migrations_dir ?? "migrations"));

  // Split before workerd starts, in batches capped by size.
  const dataBatches = [[]];
  let bytes = 0;
  for (const file of sqlFiles(seedDir))
    for (const statement of split(readFileSync(file, "utf8"))) {
      if (bytes + statement.length > BATCH_BYTES && dataBatches.at(-1).length > 0) {
        dataBatches.push([]);
        bytes = 0;
      }
      dataBatches.at(-1).push(statement);
      bytes += statement.length;
    }
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: D1_RUNNER,
      cf: false, // no look-up of the Request.cf object (offline)
      resourcePersistencePath: path.join(stateDir, "v3"),
      d1Databases: { DB: database.preview_database_id ?? database.database_id ?? database.binding },
    }),
  );
  /** One D1 batch (one transaction) through the runner; resolves to each statement's rows. */
  const batch = async (statements) => {
    const res = await mf.dispatchFetch("http://d1.local/batch", { method: "POST", body: JSON.stringify(statements) });
    if (!res.ok) throw new Error(await res.text());
    return res.json();
  };
  const done = [];
  try {
    // wrangler's migrations table, column for column, so `wrangler d1 migrations apply` agrees.
    const [, appliedRows] = await batch([
      `CREATE TABLE IF NOT EXISTS ${table}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
      `SELECT name FROM ${table} ORDER BY id`,
    ]);
    const applied = new Set(appliedRows.map((r) => r.name));
    const pending = migrations.filter((f) => !applied.has(path.basename(f)));
    if (pending.length > 0) {
      // wrangler appends the same INSERT to each migration; here all pending ones share one transaction.
      await batch(
        pending.flatMap((f) =>
          split(
            `${readFileSync(f, "utf8")}\nINSERT INTO ${table} (name)\nvalues ('${path.basename(f).replaceAll("'", "''")}');`,
          ),
        ),
      );
      done.push(`${pending.length} migration(s) applied in one batch`);
    } else done.push("migrations already applied");
    for (const statements of dataBatches) if (statements.length > 0) await batch(statements);
    done.push(`${dataBatches.flat().length} offline-data statements loaded in ${dataBatches.length} batch(es)`);
  } finally {
    await mf.dispose();
  }
  writeFileSync(d1Marker, `${JSON.stringify(want, null, 1)}\n`);
  return done.join(", ");
}

/**
 * Passes wrangler dev's output on without its start-up chatter: the bindings table (printed twice),
 * its "Ready on" line (the summary below replaces it), the "⎔" status lines and the notice that crons
 * do not fire locally. Every other line — the worker's logs, warnings, errors — passes unchanged.
 */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
function quiet(input, output, onLine = () => {}) {
  const blocks = [
    { start: /^Your Worker has access to the following bindings/, end: (l) => l.trim() === "", max: 40 },
    {
      start: /Scheduled Workers are not automatically triggered/,
      end: (l) => l.startsWith("  For more details"),
      max: 8,
    },
    // --no-bundle on the prebuilt bundle: its text modules are found twice and listed in a table.
    { start: /Ignoring duplicate module: /, end: () => true, max: 1 },
    { start: /^Attaching additional modules:/, end: (l) => l.startsWith("└"), max: 60 },
  ];
  let block;
  let skipped = 0;
  let trailingBlank = false;
  createInterface({ input }).on("line", (line) => {
    const plain = line.replaceAll(ANSI_COLOUR, "");
    onLine(plain);
    if (block) {
      skipped += 1;
      if (block.end(plain) || skipped >= block.max) {
        block = undefined;
        trailingBlank = true;
      }
      return;
    }
    if (trailingBlank && plain.trim() === "") return;
    trailingBlank = false;
    block = blocks.find((b) => b.start.test(plain));
    skipped = 0;
    if (block || plain.startsWith("⎔ ") || plain.startsWith("[wrangler:info] Ready on ")) return;
    output.write(`${line}\n`);
  });
}

// ── serve ────────────────────────────────────────────────────────────────────────────────────────
/** wrangler dev's phases (ms since it was spawned), from its output: config read, bundle done, workerd up. */
const phases = {};
let dev;
let wranglerStarted;
let exited = false;
let stopping = false;

function stop(signal) {
  if (stopping) return;
  stopping = true;
  if (!dev) process.exit(130);
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

const url = `http://127.0.0.1:${port}`;

/** Spawns wrangler dev; resolves when the worker answers /api/health (its "Ready" line comes earlier). */
async function serve() {
  const vars = SETTINGS.filter((name) => process.env[name] !== undefined && process.env[name] !== "").flatMap(
    (name) => ["--var", `${name}:${process.env[name]}`],
  );
  wranglerStarted = performance.now();
  dev = spawn(
    process.execPath,
    [
      "--no-warnings",
      wranglerCli,
      "dev",
      ...(usePrebuilt ? [path.relative(root, workerEntry), "--no-bundle"] : []),
      "--ip",
      "127.0.0.1",
      "--port",
      port,
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      ...vars,
    ],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const mark = (line) => {
    const at = performance.now() - wranglerStarted;
    if (line.startsWith("Your Worker has access to the following bindings")) phases.config ??= at;
    else if (line.startsWith("⎔ Starting local server")) phases.bundled ??= at;
    else if (/Ready on http/.test(line)) phases.workerd ??= at;
  };
  quiet(dev.stdout, process.stdout, mark);
  quiet(dev.stderr, process.stderr, mark);
  dev.on("exit", (code, signal) => {
    exited = true;
    process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0)));
  });
  while (!exited && !stopping) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  phases.answered = performance.now() - wranglerStarted;
}

// A fresh state has no database, so nothing there can have scheduled work that reads D1 while it is
// set up: wrangler dev boots alongside offline data → D1 (the ready line waits for both).
const early = !localDatabaseExists() && process.env.WYCKOFF_SERIAL_START !== "1";
const usePrebuilt = bundleReady();
let served;
const web = step("web", buildWeb).then(() => {
  if (early) served = serve();
});
const d1 = (async () => {
  await step("offline data", generateData);
  await step("D1", setUpD1);
})();
await Promise.all([web, d1]);
await (served ?? serve());

if (!exited && !stopping) {
  const gap = (a, b) => (phases[a] !== undefined && phases[b] !== undefined ? phases[b] - phases[a] : undefined);
  const parts = [
    ["cli+config", phases.config],
    ["bundle", gap("config", "bundled")],
    ["workerd", gap("bundled", "workerd")],
    ["first answer", gap("workerd", "answered")],
  ]
    .filter(([, ms]) => ms !== undefined)
    .map(([name, ms]) => `${name} ${seconds(ms)}`);
  timings.push(
    `wrangler dev${usePrebuilt ? " (prebuilt bundle)" : ""} ${seconds(phases.answered)}${early ? " alongside data and D1" : ""}${parts.length ? ` [${parts.join(", ")}]` : ""}`,
  );
  console.log(
    `[start] serving the reading room at ${url} — ready in ${seconds(performance.now() - started)} (${timings.join(", ")})`,
  );
  if (prebundle && !usePrebuilt) {
    const t0 = performance.now();
    buildWorker().then(
      (outcome) => console.log(`[start] worker: ${outcome} (${seconds(performance.now() - t0)})`),
      (error) => console.log(`[start] worker: not bundled for the next start (${String(error?.message ?? error)})`),
    );
  }
}
