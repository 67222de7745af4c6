/**
 * Verifies an exported audit trail (`GET /api/sessions/:id/audit`, JSONL) on its own, with plain Node:
 * the chain (each `prev` is the previous entry's `hash`; the first is the SHA-256 of the session's
 * genesis text), each `hash` (SHA-256 of the canonical JSON of the entry without `hash`, `sig`, `keyId`),
 * the Ed25519 signatures given the public key, and — given the session export and the spilled results —
 * the result and text hashes. Prints the first broken entry and why, and exits 1; exits 0 when all hold.
 * The only project file it reads is the canonical-JSON helper, so a third party can audit this script.
 *
 * Usage: npm run audit:verify -- <audit.jsonl> [--key <public key, base64url>] [--messages <session.json>]
 *                                [--spills <dir holding spills/<session>/<turn>/<call>.json>]
 */
import { createHash, createPublicKey, verify } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { canonicalJson } from "../worker/lib/canonical-json.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { key: { type: "string" }, messages: { type: "string" }, spills: { type: "string" } },
});
const file = positionals[0];
if (!file) {
  console.error(
    "usage: npm run audit:verify -- <audit.jsonl> [--key <public key>] [--messages <session.json>] [--spills <dir>]",
  );
  process.exit(2);
}

const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex");
const genesis = (sessionId) => sha256(`wyckoff-edge/audit/v1/genesis/${sessionId}`);

let publicKey;
let keyId;
if (values.key) {
  try {
    publicKey = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: values.key }, format: "jwk" });
    keyId = createHash("sha256").update(Buffer.from(values.key, "base64url")).digest("hex").slice(0, 16);
  } catch (error) {
    console.error(`--key is not an Ed25519 public key (base64url of 32 bytes): ${error.message}`);
    process.exit(2);
  }
}

/** Tool outputs by call id and assistant texts, from a session export. */
function readExport(p) {
  const detail = JSON.parse(readFileSync(p, "utf8"));
  const outputs = new Map();
  const texts = new Set();
  for (const m of detail.messages ?? []) {
    if (m.role !== "assistant") continue;
    let text = "";
    for (const part of m.parts ?? []) {
      if (part.type === "text") text += part.text;
      if (typeof part.toolCallId === "string" && "output" in part) outputs.set(part.toolCallId, part.output);
      if (typeof part.toolCallId === "string" && part.errorText !== undefined && !("output" in part))
        outputs.set(part.toolCallId, { errorText: part.errorText });
    }
    texts.add(sha256(text));
  }
  return { id: detail.id, outputs, texts };
}
const exported = values.messages ? readExport(values.messages) : undefined;

const fail = (seq, why) => {
  console.error(`FAIL at entry ${seq}: ${why}`);
  process.exit(1);
};

const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "");
if (lines.length === 0) fail(1, "the file holds no entries");
let prev;
let session;
let signed = 0;
let resultsChecked = 0;
let spillsChecked = 0;
for (const [i, line] of lines.entries()) {
  const n = i + 1;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    fail(n, "not valid JSON");
  }
  if (entry.v !== 1) fail(n, `unknown format version ${JSON.stringify(entry.v)}`);
  if (entry.seq !== n) fail(n, `seq is ${entry.seq}, expected ${n} (an entry was removed, added or reordered)`);
  session ??= entry.session;
  if (entry.session !== session) fail(n, `belongs to session ${entry.session}, not ${session}`);
  if (exported && exported.id !== session) fail(n, `the messages export is of session ${exported.id}, not ${session}`);
  const expectedPrev = prev ?? genesis(session);
  if (entry.prev !== expectedPrev)
    fail(
      n,
      `prev ${entry.prev} does not match ${i === 0 ? "the session's genesis hash" : "the previous entry's hash"} ${expectedPrev}`,
    );
  const { hash, sig, keyId: entryKeyId, ...body } = entry;
  const recomputed = sha256(canonicalJson(body));
  if (recomputed !== hash)
    fail(n, `hash ${hash} does not match the entry's content (${recomputed}): the entry was changed`);
  if (publicKey) {
    if (sig === null || sig === undefined) fail(n, "entry is unsigned");
    if (entryKeyId !== keyId) fail(n, `signed with key ${entryKeyId}, not the given key ${keyId}`);
    if (!verify(null, Buffer.from(hash, "ascii"), publicKey, Buffer.from(sig, "base64url")))
      fail(n, "signature does not verify with the given public key");
    signed++;
  }
  if (exported) {
    for (const call of entry.tools ?? []) {
      if (call.resultHash === null) continue;
      if (!exported.outputs.has(call.id)) fail(n, `tool call ${call.id} (${call.name}) is not in the messages export`);
      if (sha256(canonicalJson(exported.outputs.get(call.id))) !== call.resultHash)
        fail(n, `result of tool call ${call.id} (${call.name}) differs from the export`);
      resultsChecked++;
    }
    if (entry.kind !== "pipeline_step" && entry.textHash !== sha256("") && !exported.texts.has(entry.textHash))
      fail(n, "the answer's text hash matches no assistant message in the export");
  }
  if (values.spills) {
    for (const call of entry.tools ?? []) {
      if (!call.spill || call.spill.sha256 === null) continue;
      const candidates = [
        path.join(values.spills, call.spill.ref),
        path.join(values.spills, path.basename(call.spill.ref)),
      ];
      const found = candidates.find((p) => existsSync(p));
      if (!found) fail(n, `spilled result ${call.spill.ref} not found under ${values.spills}`);
      if (sha256(readFileSync(found, "utf8")) !== call.spill.sha256)
        fail(n, `spilled result ${call.spill.ref} differs from the one recorded`);
      spillsChecked++;
    }
  }
  prev = hash;
}
console.log(
  `OK: ${lines.length} entries of session ${session}, chain intact, head ${prev}` +
    (publicKey ? `; ${signed} signatures verified (key ${keyId})` : "; signatures not checked (no --key)") +
    (exported ? `; ${resultsChecked} tool results match the export` : "") +
    (values.spills ? `; ${spillsChecked} spilled results match` : ""),
);
