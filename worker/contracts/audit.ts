/**
 * The audit trail's shapes: one entry per turn (and per notification turn and pipeline step), hash-
 * chained per session and signed with Ed25519 when the deployment holds `AUDIT_KEY`. The hash is the
 * SHA-256 (hex) of the canonical JSON (`lib/canonical-json.ts`) of the entry without `hash` and `sig`;
 * `sig` is the Ed25519 signature (base64url) of the 64 hex characters of `hash`.
 */
import { z } from "zod";

/** Format version written into every entry. */
export const AUDIT_VERSION = 1;

/** Longest canonical argument text stored as is; longer arguments are replaced by their hash. */
export const AUDIT_ARGS_CHARS = 4_000;

/** Upper bound of one stored entry (characters of its JSON line); over it, every argument is hashed. */
export const AUDIT_ENTRY_CHARS = 256_000;

/** A hashed stand-in for an oversized value. */
export const HashedValue = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), chars: z.number().int() });
export type HashedValue = z.infer<typeof HashedValue>;

/** One tool call of the turn. */
export const AuditToolCall = z.object({
  id: z.string(),
  name: z.string(),
  /** The canonical arguments, or their hash when longer than `AUDIT_ARGS_CHARS`. */
  args: z.unknown(),
  argsHash: z.string(),
  /** SHA-256 of the canonical JSON of the output as the transcript holds it (a spill reference when spilled). */
  resultHash: z.string().nullable(),
  status: z.enum(["ok", "error", "denied", "unanswered"]),
  ms: z.number().nullable(),
  /** Where the full result lives when it was spilled, with the SHA-256 of the stored text. */
  spill: z.object({ ref: z.string(), sha256: z.string().nullable(), chars: z.number() }).nullable(),
  approval: z
    .object({
      decision: z.enum(["pending", "allow", "always", "edit", "deny"]),
      by: z.string().nullable(),
      at: z.string().nullable(),
    })
    .nullable(),
});
export type AuditToolCall = z.infer<typeof AuditToolCall>;

/** One entry of a session's chain. */
export const AuditEntry = z.object({
  v: z.literal(AUDIT_VERSION),
  seq: z.number().int().min(1),
  session: z.string(),
  turn: z.string(),
  kind: z.enum(["turn", "notification", "pipeline_step", "deleted"]),
  step: z.object({ index: z.number().int(), name: z.string() }).nullable(),
  user: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  status: z.string(),
  model: z.object({ id: z.string(), settings: z.record(z.string(), z.unknown()) }),
  systemHash: z.string().nullable(),
  messagesHash: z.string().nullable(),
  userTextHash: z.string().nullable(),
  textHash: z.string(),
  tools: z.array(AuditToolCall),
  usage: z.record(z.string(), z.number()),
  costMicros: z.number().int(),
  prev: z.string(),
  hash: z.string(),
  sig: z.string().nullable(),
  keyId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** An entry before it is sealed (no `prev`, `hash`, `sig`, `keyId`, `seq`). */
export type AuditBody = Omit<AuditEntry, "prev" | "hash" | "sig" | "keyId" | "seq">;

/** The chain's summary shown with a session: its head hash, length and whether entries are signed. */
export const AuditHead = z.object({
  head: z.string(),
  count: z.number().int(),
  signed: z.boolean(),
  keyId: z.string().nullable(),
});
export type AuditHead = z.infer<typeof AuditHead>;

/** `GET /api/sessions/:id/audit/head` and `GET /api/shares/:token/audit/head`. */
export const AuditHeadResponse = z.object({ audit: AuditHead.nullable() });
export type AuditHeadResponse = z.infer<typeof AuditHeadResponse>;

/** `GET /api/audit/public-key`. */
export const AuditPublicKeyResponse = z.object({
  algorithm: z.literal("Ed25519"),
  /** Raw 32-byte public key, base64url; null when the deployment holds no `AUDIT_KEY`. */
  publicKey: z.string().nullable(),
  keyId: z.string().nullable(),
  signed: z.boolean(),
});
export type AuditPublicKeyResponse = z.infer<typeof AuditPublicKeyResponse>;

/** The genesis text whose SHA-256 is the first entry's `prev` (binds a chain to its session). */
export function auditGenesisText(sessionId: string): string {
  return `wyckoff-edge/audit/v${AUDIT_VERSION}/genesis/${sessionId}`;
}
