/** Runs wrangler with the offline environment (no metrics, no Cloudflare look-ups): `node scripts/wrangler.mjs <args>`. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OFFLINE_WRANGLER_ENV } from "./wrangler-env.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const result = spawnSync(path.join(root, "node_modules", ".bin", "wrangler"), process.argv.slice(2), {
  cwd: process.cwd(),
  env: { ...process.env, ...OFFLINE_WRANGLER_ENV },
  stdio: "inherit",
});
process.exit(result.status ?? 1);
