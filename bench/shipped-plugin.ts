/** The `?shipped` import of the benches (bench/workers/vitest.config.ts, bench/vitest.node.config.ts). */
import { build } from "esbuild";
import type { Plugin } from "vitest/config";

/**
 * `import("<module>.ts?shipped")`: the module bundled by esbuild into one ES module, as `wrangler
 * deploy` ships the worker, so a bench can time the code as it runs in production. Under the test
 * pool every source module runs through Vite's module runner, where each use of an imported binding
 * is a property read on the importee's namespace object — several times slower in call-heavy loops.
 */
export function shippedModules(): Plugin {
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
