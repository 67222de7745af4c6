/**
 * Identity shapes (CONTRACTS.md "HTTP API"): who the caller is, and the API tokens of `AUTH_MODE=token`
 * (created by the admin for a user, or by a signed-in user for themself; the token is shown once).
 */
import { z } from "zod";

/** The single owner of a `local`-mode installation (and of cron and webhook runs). */
export const LOCAL_OWNER = "local";

/** How the server identifies callers. */
export const AuthMode = z.enum(["local", "token", "access"]);
export type AuthMode = z.infer<typeof AuthMode>;

/** `GET /api/me`: the signed-in user. */
export const Me = z.object({ user: z.string(), authMode: AuthMode, tokenId: z.string().nullable() });
export type Me = z.infer<typeof Me>;

/** A user id as the admin names it (an email, a handle): no whitespace, ≤ 200 characters. */
export const UserId = z.string().trim().min(1).max(200).regex(/^\S+$/, "user must not contain whitespace");

/** Optional human label of a token ("laptop", "CI"). */
export const TokenLabel = z.string().trim().max(80);

/** `POST /api/admin/tokens` body. */
export const CreateAdminTokenBody = z.object({ user: UserId, label: TokenLabel.optional() }).strict();
export type CreateAdminTokenBody = z.infer<typeof CreateAdminTokenBody>;

/** `POST /api/tokens` body (a token for the signed-in user). */
export const CreateOwnTokenBody = z.object({ label: TokenLabel.optional() }).strict();
export type CreateOwnTokenBody = z.infer<typeof CreateOwnTokenBody>;

/** A newly created token: the only answer that ever carries the token itself. */
export const CreatedApiToken = z.object({ id: z.string(), user: z.string(), label: z.string(), token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

/** A token as listings show it (never the token). */
export const ApiTokenSummary = z.object({
  id: z.string(),
  user: z.string(),
  label: z.string(),
  createdBy: z.enum(["admin", "user"]),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiTokenSummary = z.infer<typeof ApiTokenSummary>;

/** `GET /api/tokens`, `GET /api/admin/tokens`. */
export const ApiTokenList = z.object({ tokens: z.array(ApiTokenSummary) });
export type ApiTokenList = z.infer<typeof ApiTokenList>;
