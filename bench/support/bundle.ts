/**
 * A module as the worker ships it: one esbuild bundle of `entry` (every module it imports inlined, as
 * `wrangler deploy` bundles the worker), written to a temporary file and imported in this process.
 * Under vitest every source module runs through Vite's module runner, where each use of an imported
 * binding is a property read on the importee's namespace object — 1.5–5× slower on call-heavy code.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** The bundle of `entry` (a path relative to the repository root), imported. */
export async function bundled<T>(entry: string): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "wyckoff-bench-"));
  const file = path.join(dir, `${path.basename(entry, path.extname(entry))}.mjs`);
  try {
    await build({
      entryPoints: [path.resolve(import.meta.dirname, "../..", entry)],
      bundle: true,
      format: "esm",
      platform: "neutral",
      target: "es2024",
      outfile: file,
      logLevel: "warning",
    });
    return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
