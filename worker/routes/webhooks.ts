/**
 * `POST /api/webhooks/screenings`: a Standard Webhooks-signed request starts a screening. The raw
 * body is verified with the `standardwebhooks` package (HMAC-SHA256 over `id.timestamp.body`,
 * constant-time compare, 5-minute tolerance either way) before anything is parsed. The `webhook-id`
 * (or `svix-id`: both header sets are read) is the task's idempotency key: the same id again answers the same task and queues nothing.
 */
import { Hono } from "hono";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { z } from "zod";
import { ScreenBoard, ScreenMarket } from "../contracts/screening";
import type { AppEnv } from "../http/app-env";
import { LOCAL_OWNER } from "../http/identity";
import { AppError, toAppError } from "../lib/app-error";
import { formatIssues, issuesInChinese } from "../contracts/errors";
import { invalidInput } from "../http/params";
import { sessions } from "../storage/schema";
import { eq } from "drizzle-orm";
import { backgroundDeps } from "../coordinator/background-wiring";
import { createBackgroundPort } from "../background/background-port";

/** Body of a screening webhook. */
export const ScreeningWebhookBody = z
  .object({
    board: ScreenBoard.default("all"),
    market: ScreenMarket.default("cn"),
    limit: z.number().int().min(1).max(30).default(12),
    /** A session to report the result into; its owner owns the task. */
    session: z.string().min(1).max(64).optional(),
  })
  .strict();
export type ScreeningWebhookBody = z.infer<typeof ScreeningWebhookBody>;

/** Longest accepted `webhook-*` header values (the id becomes a stored idempotency key). */
export const WEBHOOK_HEADER_LIMITS = { "webhook-id": 256, "webhook-timestamp": 16, "webhook-signature": 2048 } as const;

/** Refuses over-long or non-printable `webhook-*` headers before any signature work (400). */
function checkHeaderLengths(headers: Record<keyof typeof WEBHOOK_HEADER_LIMITS, string>): void {
  for (const [name, max] of Object.entries(WEBHOOK_HEADER_LIMITS)) {
    const value = headers[name as keyof typeof WEBHOOK_HEADER_LIMITS];
    if (value.length > max)
      throw invalidInput(
        name,
        `webhook refused: ${name} is longer than ${max} characters`,
        `webhook 被拒绝：${name} 超过 ${max} 个字符`,
      );
    if (!/^[\x20-\x7e]*$/.test(value))
      throw invalidInput(
        name,
        `webhook refused: ${name} has characters outside printable ASCII`,
        `webhook 被拒绝：${name} 含可打印 ASCII 以外的字符`,
      );
  }
}

function refuse(message: string): AppError {
  return new AppError("unauthorized", 401, `webhook refused: ${message}`);
}

/**
 * The Standard Webhooks header set the library verifies. Senders using Svix's branding send the
 * same three values as `svix-id`, `svix-timestamp`, `svix-signature` (Svix's own verifier accepts
 * both); the set is taken whole — `webhook-*` when `webhook-id` is present, else `svix-*` — so one
 * request never mixes the two.
 */
export function signatureHeaders(read: (name: string) => string | undefined): Record<string, string> {
  const prefix = read("webhook-id") === undefined && read("svix-id") !== undefined ? "svix" : "webhook";
  return {
    "webhook-id": read(`${prefix}-id`) ?? "",
    "webhook-timestamp": read(`${prefix}-timestamp`) ?? "",
    "webhook-signature": read(`${prefix}-signature`) ?? "",
  };
}

/** Webhook routes, mounted at /api/webhooks (before identity: they authenticate by signature). */
export const webhookRoutes = new Hono<AppEnv>().post("/screenings", async (c) => {
  const secret = c.var.config.webhookSecret;
  if (!secret) throw refuse("webhooks are disabled (WEBHOOK_SECRET is not set)");
  const raw = await c.req.text();
  const headers = signatureHeaders((name) => c.req.header(name));
  checkHeaderLengths(headers);
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(raw, headers);
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw refuse(error.message.toLowerCase());
    if (error instanceof SyntaxError)
      throw invalidInput("(body)", "webhook body is not valid JSON", "webhook 请求体不是有效的 JSON");
    throw refuse("signature could not be checked");
  }
  const parsed = ScreeningWebhookBody.safeParse(payload ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)";
    const zh = issuesInChinese(ScreeningWebhookBody, payload ?? {}, parsed.error.issues).slice(0, 1);
    throw invalidInput(
      field,
      issue ? formatIssues([issue], { root: "(body)" }) : "invalid body",
      zh.length > 0 ? formatIssues(zh, { root: "(body)", lang: "zh" }) : "请求体无效",
    );
  }
  const { session, ...input } = parsed.data;
  let ownerId = LOCAL_OWNER;
  if (session) {
    const row = await c.var.deps.db.query.sessions.findFirst({ where: eq(sessions.id, session) });
    if (!row) throw new AppError("not_found", 404, `session ${session} not found`);
    ownerId = row.ownerId;
  }
  const port = createBackgroundPort(backgroundDeps(c.env, { log: c.var.log }));
  const submitted = await port.submit({
    kind: "screen_stocks",
    input,
    ownerId,
    sessionId: session ?? null,
    idempotencyKey: `webhook:${headers["webhook-id"]}`,
  });
  if (!submitted.ok) throw toAppError(submitted.error);
  const { task, created } = submitted.value;
  c.var.log.info("webhook_screening", { taskId: task.id, created });
  return c.json({ taskId: task.id, replayed: !created }, created ? 202 : 200);
});
