/** Benchmarks inside workerd (real DO SQLite, D1): the session runtime's request path. */
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { build } from "esbuild";
import { defineConfig, type Plugin } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * `import("<module>.ts?shipped")`: the module bundled by esbuild into one ES module, as `wrangler
 * deploy` ships the worker, so a bench can time the code as it runs in production. Under the test
 * pool every source module runs through Vite's module runner, where each use of an imported binding
 * is a property read on the importee's namespace object — several times slower in call-heavy loops.
 */
function shippedModules(): Plugin {
  const PREFIX = "\0shipped:";
  return {
    name: "shipped-modules",
    enforce: "pre",
    async resolveId(id, importer) {
      if (!id.endsWith("?shipped")) return null;
      const r = await this.resolve(id.slice(0, -"?shipped".length), importer, { skipSelf: true });
      return r ? PREFIX + r.id : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const out = await build({
        entryPoints: [id.slice(PREFIX.length)],
        bundle: true,
        format: "esm",
        platform: "neutral",
        target: "es2024",
        conditions: ["workerd", "worker", "browser"],
        mainFields: ["module", "main"],
        external: ["cloudflare:*", "node:*"],
        write: false,
        logLevel: "warning",
      });
      return out.outputFiles[0]?.text ?? "";
    },
  };
}

export default defineConfig({
  plugins: [
    shippedModules(),
    cloudflareTest(async ({ inject }) => ({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
          LLM_BASE_URL: inject<string>("modelUrl"),
          LLM_MODEL: "scripted",
          BENCH_COLLECTOR_URL: inject<string>("collectorUrl"),
        },
      },
    })),
  ],
  test: {
    name: "bench-workers",
    root,
    include: ["bench/workers/**/*.bench.ts"],
    setupFiles: ["test/integration/apply-migrations.ts"],
    globalSetup: ["bench/workers/global-setup.ts"],
    testTimeout: 600_000,
  },
});
