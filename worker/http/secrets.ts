/**
 * Secrets at the edge: random capability tokens, their SHA-256 (the only form stored), a
 * constant-time comparison for the admin secret, and the Bearer header reader.
 */
import { formatId } from "../lib/ids";

/** Prefix of API tokens (`AUTH_MODE=token`). */
export const API_TOKEN_PREFIX = "wk_";
/** Prefix of share-link tokens; such a token is never an identity. */
export const SHARE_TOKEN_PREFIX = "shr_";

/** A new random secret: `prefix` + 52 base32 characters (256 bits). */
export function newSecret(prefix: string): string {
  return formatId(crypto.getRandomValues(new Uint8Array(32)), prefix);
}

/** A new random id (`prefix` + 26 base32 characters). */
export function newId(prefix: string): string {
  return formatId(crypto.getRandomValues(new Uint8Array(16)), prefix);
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Hex SHA-256 of a token: what the database stores and looks up. */
export async function sha256Hex(text: string): Promise<string> {
  return [...(await digest(text))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Compares two secrets in constant time: both are hashed first, so the comparison always runs over
 * 32 bytes whatever the lengths, and every byte is visited.
 */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerOf(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return m?.[1];
}
