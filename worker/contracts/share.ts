/**
 * Share links (CONTRACTS.md "HTTP API"): a random capability token shows one session read-only at
 * `/s/:token`; the owner lists and revokes them. Only the token's SHA-256 is stored.
 */
import { z } from "zod";
import { SessionDetail } from "./api";

/** Longest share lifetime (hours): one year. */
export const MAX_SHARE_HOURS = 24 * 365;

/** `POST /api/sessions/:id/share` body; no `expiresInHours` = until revoked. */
export const CreateShareBody = z
  .object({
    expiresInHours: z.number().int().min(1).max(MAX_SHARE_HOURS).optional(),
    /** The link also serves the session's audit export (`GET /api/shares/:token/audit`). */
    audit: z.boolean().optional(),
  })
  .strict();
export type CreateShareBody = z.infer<typeof CreateShareBody>;

/** A new share link (201): the token is shown once. */
export const CreatedShare = z.object({
  id: z.string(),
  token: z.string(),
  url: z.string(),
  sessionId: z.string(),
  expiresAt: z.string().nullable(),
  audit: z.boolean().optional(),
});
export type CreatedShare = z.infer<typeof CreatedShare>;

/** One of the owner's shares (`GET /api/shares`). */
export const ShareSummary = z.object({
  id: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  expired: z.boolean(),
});
export type ShareSummary = z.infer<typeof ShareSummary>;

/** `GET /api/shares`. */
export const ShareList = z.object({ shares: z.array(ShareSummary) });
export type ShareList = z.infer<typeof ShareList>;

/** `GET /api/shares/:token`: the session detail plus the share's read-only marker. */
export const SharedSession = SessionDetail.extend({
  shared: z.object({
    readOnly: z.literal(true),
    expiresAt: z.string().nullable(),
    /** The link also serves the audit export. */
    audit: z.boolean().optional(),
  }),
});
export type SharedSession = z.infer<typeof SharedSession>;
