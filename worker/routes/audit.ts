/**
 * Audit routes: the public half of the signing key (no sign-in: anyone verifying an export needs it),
 * a session's chain as JSONL (owner only; a share link when its creator ticked "audit"), and the
 * tombstones of the caller's deleted sessions.
 */
import { Hono } from "hono";
import type { AuditHeadResponse, AuditPublicKeyResponse } from "../contracts/audit";
import type { AppEnv } from "../http/app-env";
import { signerFor } from "../http/audit-signer";
import { AppError } from "../lib/app-error";
import type { SessionAgent } from "../session/session-agent";
import { ownedSession } from "./sessions";

/** Entries read from the session per RPC while streaming an export. */
const PAGE = 200;

/** Streams a session's audit chain as JSONL, one entry per line, in chain order. */
export function auditExport(stub: DurableObjectStub<SessionAgent>, sessionId: string): Response {
  let after = 0;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const lines = await stub.auditLines(after, PAGE);
      if (lines.length === 0) return controller.close();
      after += lines.length;
      controller.enqueue(encoder.encode(lines.map((l) => `${l}\n`).join("")));
      if (lines.length < PAGE) controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${sessionId}.jsonl"`,
      "cache-control": "private, no-store",
    },
  });
}

/** `GET /api/audit/public-key`, mounted before the identity middleware. */
export const auditPublicRoutes = new Hono<AppEnv>().get("/public-key", async (c) => {
  const signer = await signerFor(c.var.config.auditKey);
  if (signer.state === "invalid")
    throw new AppError("internal", 500, "server misconfigured: AUDIT_KEY is not an Ed25519 PKCS#8 key (base64)");
  return c.json({
    algorithm: "Ed25519",
    publicKey: signer.publicKey,
    keyId: signer.keyId,
    signed: signer.state === "signed",
  } satisfies AuditPublicKeyResponse);
});

/** The caller's tombstones, mounted at /api/audit after identity. */
export const auditOwnerRoutes = new Hono<AppEnv>().get("/tombstones", async (c) => {
  const rows = await c.var.deps.tombstones.list(c.var.userId);
  return c.json({
    tombstones: rows.map((t) => ({
      sessionId: t.sessionId,
      headHash: t.headHash,
      entries: t.entries,
      signed: t.signed,
      deletedAt: new Date(t.deletedAt).toISOString(),
    })),
  });
});

/** `GET /api/sessions/:id/audit` (the export) and `…/audit/head`, mounted at /api/sessions after identity. */
export const sessionAuditRoutes = new Hono<AppEnv>()
  .get("/:id/audit", async (c) => {
    const { id, stub } = await ownedSession(c);
    return auditExport(stub, id);
  })
  .get("/:id/audit/head", async (c) => {
    const { stub } = await ownedSession(c);
    return c.json({ audit: await stub.auditHead() } satisfies AuditHeadResponse);
  });
