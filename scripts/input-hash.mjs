/**
 * Content keys for `npm start`'s skip-when-unchanged steps. A step records the files and directories
 * it actually used (the web build's module graph, the offline-data generator's loads and reads); the key
 * hashes their contents and listings. Files inside node_modules stand for their package versions, so
 * they are keyed by package-lock.json instead of being read one by one.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** sha256 of the inputs (throws when one is gone: the caller treats that as out of date). */
export function inputsKey(root, { files, dirs }, extra = {}) {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(extra));
  let packages = false;
  for (const file of files) {
    if (file.split(path.sep).includes("node_modules")) {
      packages = true;
      continue;
    }
    hash.update(`\0file ${path.relative(root, file)}\0`);
    hash.update(readFileSync(file));
  }
  for (const dir of dirs) hash.update(`\0dir ${path.relative(root, dir)}\0${readdirSync(dir).sort().join("\0")}`);
  if (packages) hash.update(readFileSync(path.join(root, "package-lock.json")));
  return hash.digest("hex");
}

/** The stored record `{ key, files, dirs }` when it still matches its inputs, else undefined. */
export function upToDate(root, recordFile, extra = {}) {
  if (!existsSync(recordFile)) return undefined;
  try {
    const record = JSON.parse(readFileSync(recordFile, "utf8"));
    const files = record.files.map((f) => path.resolve(root, f));
    const dirs = record.dirs.map((d) => path.resolve(root, d));
    return inputsKey(root, { files, dirs }, extra) === record.key ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Stores the record (paths relative to the repository) atomically. */
export function writeRecord(root, recordFile, { files, dirs }, extra = {}) {
  const key = inputsKey(root, { files, dirs }, extra);
  const rel = (p) => path.relative(root, p);
  const tmp = `${recordFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ key, files: files.map(rel), dirs: dirs.map(rel) }, null, 1)}\n`);
  renameSync(tmp, recordFile);
  return key;
}

/** sha256 of several files' names and contents, in the given order. */
export function filesKey(files) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`\0${path.basename(file)}\0`);
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}
