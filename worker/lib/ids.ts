/**
 * Opaque random ids (sessions, tasks, shares). Randomness is passed in so the core stays pure;
 * the edge supplies `crypto.getRandomValues`.
 */

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

/** Formats 16 random bytes as a 26-character base32 id, optionally prefixed (`s_…`). */
export function formatId(bytes: Uint8Array, prefix = ""): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return prefix + out;
}

/** True when `id` has the shape `formatId` produces (used to reject junk ids early with 404). */
export function isWellFormedId(id: string, prefix = ""): boolean {
  return id.startsWith(prefix) && /^[0-9a-hjkmnp-tv-z]{26}$/.test(id.slice(prefix.length));
}
