/**
 * Encryption of users' saved model API keys: AES-GCM (WebCrypto) under a 256-bit key derived with
 * HKDF-SHA-256 from the `MODEL_KEYS_SECRET` Worker secret, a fresh 96-bit IV per write, and the owner's
 * id as associated data (a ciphertext copied to another user's row does not open). Sealed form:
 * `v1.<iv>.<ciphertext>` in base64url.
 */
import { AppError } from "../lib/app-error";

/** The shortest secret accepted (32 characters, e.g. `openssl rand -base64 32`). */
export const MIN_SECRET_LENGTH = 32;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function b64url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const out = new Uint8Array(new ArrayBuffer(bin.length));
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** Why the secret cannot be used, as a message naming the setting; undefined when it can. */
export function secretProblem(secret: string | undefined): string | undefined {
  if (secret === undefined || secret === "")
    return "server misconfigured: MODEL_KEYS_SECRET is not set, so users' own model keys cannot be stored or used";
  if (secret.length < MIN_SECRET_LENGTH)
    return `server misconfigured: MODEL_KEYS_SECRET must be at least ${MIN_SECRET_LENGTH} characters`;
  return undefined;
}

/** Seals and opens API keys with the deployment's secret. */
export class KeyBox {
  private constructor(private readonly key: CryptoKey) {}

  /** The box for `secret`; a missing or too short secret is a 500 naming MODEL_KEYS_SECRET. */
  static async create(secret: string | undefined): Promise<KeyBox> {
    const problem = secretProblem(secret);
    if (problem !== undefined || secret === undefined) throw new AppError("internal", 500, problem ?? "");
    const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
    const key = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: encoder.encode("wyckoff-edge/model-keys"), info: encoder.encode("v1") },
      material,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"],
    );
    return new KeyBox(key);
  }

  /** Encrypts `plaintext` for `owner` with a fresh IV. */
  async seal(plaintext: string, owner: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(owner) },
      this.key,
      encoder.encode(plaintext),
    );
    return `v1.${b64url(iv)}.${b64url(new Uint8Array(data))}`;
  }

  /** Decrypts a sealed key of `owner`; null when it does not open (another secret, another owner, damage). */
  async open(sealed: string, owner: string): Promise<string | null> {
    const [version, ivText, dataText] = sealed.split(".");
    if (version !== "v1" || ivText === undefined || dataText === undefined) return null;
    const iv = fromB64url(ivText);
    const data = fromB64url(dataText);
    if (!iv || !data) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(owner) },
        this.key,
        data,
      );
      return decoder.decode(plain);
    } catch {
      return null;
    }
  }
}
