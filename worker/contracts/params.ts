/**
 * Path parameters of the HTTP API, one schema each (length and alphabet), checked before a parameter
 * reaches a repo, a Durable Object or R2. Ids have the exact shape the server mints; free names
 * (symbols) have a bounded length and a plain alphabet.
 */
import { z } from "zod";

const BASE32 = "[0-9a-hjkmnp-tv-z]";

/** A server-minted id: `prefix` + 26 Crockford base32 characters. */
export function mintedId(prefix: string): z.ZodString {
  return z.string().regex(new RegExp(`^${prefix}${BASE32}{26}$`), `must be an id of the form ${prefix}…`);
}

/** `:id` of `/api/sessions/:id…`. */
export const SessionIdParam = mintedId("s_");
/** A turn id (`t_…`). */
export const TurnIdParam = mintedId("t_");
/** A share-link token (`shr_` + 52 base32 characters). */
export const ShareTokenParam = z.string().regex(new RegExp(`^shr_${BASE32}{52}$`), "must be a share token");
/** `DELETE /api/shares/:key`: a share id (`sh_…`) or its token. */
export const ShareKeyParam = z.union([mintedId("sh_"), ShareTokenParam]);

/**
 * An opaque key chosen elsewhere (a model's tool-call id, an approval id, a memory, hint or API-token
 * id): 1–128 characters of letters, digits and `_ . : ~ -`.
 */
export const KeyParam = z
  .string()
  .min(1)
  .max(128, "must be at most 128 characters")
  .regex(/^[A-Za-z0-9_.:~-]+$/, "must use letters, digits and _ . : ~ - only");

/** A skill name in a URL (the same slug rule as its front matter). */
export const SkillNameParam = z
  .string()
  .max(32, "must be at most 32 characters")
  .regex(/^[a-z0-9][a-z0-9-]*$/, "must be a lower-case slug");

/** A market symbol or name in a URL (`SH.600519`, `AAPL`, `BRK.B`, `^GSPC`, `贵州茅台`): 1–40 characters. */
export const SymbolParam = z
  .string()
  .trim()
  .min(1, "must be 1–40 characters")
  .max(40, "must be 1–40 characters")
  .regex(/^[\p{L}\p{N}._\-^=: ]+$/u, "must use letters, digits and . _ - ^ = : only");
