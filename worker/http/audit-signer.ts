/**
 * The audit trail's WebCrypto adapter: SHA-256 and Ed25519 signing with the `AUDIT_KEY` secret
 * (PKCS#8 DER, base64 — `npm run audit:keygen` makes one). The key is imported once per isolate;
 * its public half (raw 32 bytes, base64url) and key id (first 16 hex of its SHA-256) are published at
 * `GET /api/audit/public-key`. A key that does not import is the operator's error: `signerFor`
 * answers it as `invalid`, so callers sign nothing and the route names the setting.
 */
import type { AuditCrypto } from "../ports/audit";

const encoder = new TextEncoder();

function toHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function base64UrlOf(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.trim().replace(/-/g, "+").replace(/_/g, "/").replace(/\s+/g, "");
  const bin = atob(clean + "=".repeat((4 - (clean.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** SHA-256 hex of a text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** The loaded key: its signing handle, public half and id. */
export interface AuditSigner {
  state: "signed" | "unsigned" | "invalid";
  publicKey: string | null;
  keyId: string | null;
  crypto: AuditCrypto;
}

const cache = new Map<string, Promise<AuditSigner>>();

async function load(secret: string | undefined): Promise<AuditSigner> {
  const unsigned = (state: "unsigned" | "invalid"): AuditSigner => ({
    state,
    publicKey: null,
    keyId: null,
    crypto: { sha256Hex, sign: async () => null },
  });
  if (!secret) return unsigned("unsigned");
  try {
    const der = bytesOfBase64(secret);
    const key = await crypto.subtle.importKey("pkcs8", der, { name: "Ed25519" }, true, ["sign"]);
    const jwk = (await crypto.subtle.exportKey("jwk", key)) as JsonWebKey;
    if (!jwk.x) return unsigned("invalid");
    const raw = bytesOfBase64(jwk.x);
    const publicKey = base64UrlOf(raw);
    const keyId = toHex(await crypto.subtle.digest("SHA-256", raw)).slice(0, 16);
    return {
      state: "signed",
      publicKey,
      keyId,
      crypto: {
        sha256Hex,
        sign: async (hashHex) => {
          const sig = await crypto.subtle.sign({ name: "Ed25519" }, key, encoder.encode(hashHex));
          return { sig: base64UrlOf(new Uint8Array(sig)), keyId };
        },
      },
    };
  } catch {
    return unsigned("invalid");
  }
}

/** The signer for `AUDIT_KEY` (cached per isolate and secret). */
export function signerFor(secret: string | undefined): Promise<AuditSigner> {
  const k = secret ?? "";
  let found = cache.get(k);
  if (!found) {
    found = load(secret);
    cache.set(k, found);
  }
  return found;
}
