/**
 * Preloaded by `npm start` into the offline-data generator (`node --import ./scripts/record-inputs.mjs
 * scripts/build-offline-data.mjs <out>`): records every file the generator loads as a module or reads,
 * and every directory it lists, into the JSON file named by WYCKOFF_RECORD_INPUTS when it exits. The
 * start script hashes those inputs to skip the generator on the next start when none changed.
 */
import fs from "node:fs";
import { registerHooks, syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const out = process.env.WYCKOFF_RECORD_INPUTS;
const files = new Set();
const dirs = new Set();

/** The absolute path of an fs argument, or undefined for descriptors and buffers. */
function pathOf(p) {
  if (typeof p === "string") return path.resolve(p);
  if (p instanceof URL && p.protocol === "file:") return fileURLToPath(p);
  return undefined;
}

if (out) {
  registerHooks({
    load(url, context, next) {
      if (url.startsWith("file:")) files.add(fileURLToPath(url));
      return next(url, context);
    },
  });
  const { readFileSync, readdirSync } = fs;
  fs.readFileSync = function recordedReadFileSync(p, ...rest) {
    const file = pathOf(p);
    if (file) files.add(file);
    return readFileSync.call(this, p, ...rest);
  };
  fs.readdirSync = function recordedReaddirSync(p, ...rest) {
    const dir = pathOf(p);
    if (dir) dirs.add(dir);
    return readdirSync.call(this, p, ...rest);
  };
  // Named imports (`import { readFileSync } from "node:fs"`) see the recording versions too.
  syncBuiltinESMExports();
  process.on("exit", (code) => {
    if (code === 0) fs.writeFileSync(out, JSON.stringify({ files: [...files].sort(), dirs: [...dirs].sort() }));
  });
}
