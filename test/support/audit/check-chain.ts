/**
 * An in-test audit chain checker for workerd (no node:crypto there): the same rules as
 * scripts/audit-verify.mjs — seq, session, prev/genesis, hash of the canonical body, Ed25519 signature.
 * Returns the first failure (1-based entry number and reason) or null.
 */
import { auditGenesisText, type AuditEntry } from "../../../worker/contracts/audit";
import { canonicalJson } from "../../../worker/lib/canonical-json";

const encoder = new TextEncoder();

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function bytesOfBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(clean + "=".repeat((4 - (clean.length % 4)) % 4));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/** Checks a JSONL export; `publicKey` (base64url raw) also checks every signature. */
export async function checkChain(jsonl: string, publicKey?: string): Promise<{ entry: number; why: string } | null> {
  const lines = jsonl.split("\n").filter((l) => l.trim() !== "");
  const key = publicKey
    ? await crypto.subtle.importKey("raw", bytesOfBase64Url(publicKey), { name: "Ed25519" }, false, ["verify"])
    : undefined;
  let prev: string | undefined;
  let session: string | undefined;
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    const entry = JSON.parse(line) as AuditEntry;
    if (entry.seq !== n) return { entry: n, why: "seq" };
    session ??= entry.session;
    if (entry.session !== session) return { entry: n, why: "session" };
    if (entry.prev !== (prev ?? (await sha256Hex(auditGenesisText(session))))) return { entry: n, why: "prev" };
    const { hash, sig, keyId: _keyId, ...body } = entry;
    if ((await sha256Hex(canonicalJson(body))) !== hash) return { entry: n, why: "hash" };
    if (key) {
      if (!sig) return { entry: n, why: "unsigned" };
      if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, bytesOfBase64Url(sig), encoder.encode(hash))))
        return { entry: n, why: "signature" };
    }
    prev = hash;
  }
  return null;
}
