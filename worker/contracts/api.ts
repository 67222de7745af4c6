/**
 * HTTP API shapes shared by the worker and the reading room (CONTRACTS.md "HTTP API").
 * The web app parses every response with these schemas.
 */
import { AuditHead } from "./audit";
import { z } from "zod";

/** `GET /api/health`. */
export const Health = z.object({
  ok: z.boolean(),
  version: z.string(),
  model: z.object({ id: z.string(), offline: z.boolean() }),
  marketData: z.enum(["offline", "live"]),
});
export type Health = z.infer<typeof Health>;

/** Longest session title accepted (characters). */
export const MAX_TITLE_LENGTH = 200;

/** A profile: `domain:capability`, or either alone (e.g. `cn-equity:analysis`, `deep-dive`). */
export const ProfileName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,31}(:[a-z0-9][a-z0-9-]{0,31})?$/,
    "profile must be domain:capability in lower-case slugs (e.g. cn-equity:analysis)",
  );

/** `POST /api/sessions` body. */
export const CreateSessionBody = z
  .object({
    title: z.string().trim().min(1).max(MAX_TITLE_LENGTH).optional(),
    profile: ProfileName.optional(),
  })
  .strict();
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/** `PATCH /api/sessions/:id` body: rename and/or switch the profile (`null` = the default). */
export const UpdateSessionBody = z
  .object({
    title: z.string().trim().min(1).max(MAX_TITLE_LENGTH).optional(),
    profile: ProfileName.nullable().optional(),
  })
  .strict()
  .refine((b) => b.title !== undefined || b.profile !== undefined, "give a title or a profile");
export type UpdateSessionBody = z.infer<typeof UpdateSessionBody>;

/** `POST /api/sessions` answer (201). */
export const CreatedSession = z.object({ id: z.string() });
export type CreatedSession = z.infer<typeof CreatedSession>;

/** One row of `GET /api/sessions`. */
export const SessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  profile: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** `GET /api/sessions`. */
export const SessionList = z.object({ sessions: z.array(SessionSummary) });
export type SessionList = z.infer<typeof SessionList>;

/** Token usage totals of a session. */
export const UsageTotals = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

/** Compaction state of a session (filled by context governance). */
export const CompactionState = z.object({
  summary: z.string().nullable(),
  compactedThrough: z.number().int().nullable(),
  count: z.number().int().nonnegative(),
});
export type CompactionState = z.infer<typeof CompactionState>;

/** A stored message as an AI SDK UI message (`parts` kept as the SDK emits them). */
export const StoredUIMessage = z.object({
  id: z.string(),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(z.record(z.string(), z.json())),
  metadata: z.record(z.string(), z.json()).optional(),
});
export type StoredUIMessage = z.infer<typeof StoredUIMessage>;

/** `GET /api/sessions/:id`. */
export const SessionDetail = z.object({
  id: z.string(),
  title: z.string(),
  profile: z.string().nullable(),
  createdAt: z.string(),
  messages: z.array(StoredUIMessage),
  compaction: CompactionState,
  usage: UsageTotals,
  /** The session's audit chain head (absent before the first turn ends). */
  audit: AuditHead.nullable().optional(),
  /**
   * Which messages this answer holds: the latest `limit` before `before` (or the newest). `older` is
   * the cursor for the page before (pass it as `before`), null when these are the oldest.
   */
  page: z.object({ limit: z.number().int(), older: z.string().nullable() }).optional(),
});
export type SessionDetail = z.infer<typeof SessionDetail>;

/** Messages a session read returns when the request names no `limit`. */
export const DEFAULT_PAGE_MESSAGES = 200;
/** Most messages one session read returns. */
export const MAX_PAGE_MESSAGES = 500;

/** `GET /api/sessions/:id` (and `GET /api/shares/:token`) query: `limit` and the `before` cursor. */
export const SessionPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_MESSAGES).default(DEFAULT_PAGE_MESSAGES),
  before: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, "before must be a cursor from page.older")
    .transform(Number)
    .optional(),
});
export type SessionPageQuery = z.infer<typeof SessionPageQuery>;

/** Longest user message accepted (characters); longer is a 413. */
export const MAX_MESSAGE_CHARS = 20_000;

/**
 * The language of the person's interface, sent with a message: the turn is answered in it when the
 * text itself shows none (a bare `/screen`, a code such as `600000`).
 */
const StatedLang = z.enum(["zh", "en"], { message: 'lang must be "zh" or "en"' }).optional();

/** The plain `{ text, lang? }` form of a message body. */
export const TextMessageBody = z
  .object({ text: z.string().refine((t) => t.trim().length > 0, "text must not be empty"), lang: StatedLang })
  .strict();

/**
 * The AI SDK `DefaultChatTransport` body (`{ id, messages, trigger, messageId, … }`): only the
 * messages are read (UI messages; other keys, and other fields of each message, are ignored).
 */
const ChatTransportBody = z.looseObject({
  lang: StatedLang,
  messages: z.array(
    z.looseObject({
      role: z.string(),
      parts: z.array(z.looseObject({ type: z.string(), text: z.unknown().optional() })),
    }),
  ),
});

const EITHER_FORM = "body must be { text } or the AI SDK chat body { messages: [...] }";

/**
 * `POST /api/sessions/:id/messages` body: `{ text }`, or the AI SDK chat body whose last message is
 * the user's (its text parts, joined by blank lines, become `text`). Either way the result is
 * `{ text }` (with `lang` when the body stated one). Length over MAX_MESSAGE_CHARS is checked separately (413).
 */
export const SendMessageBody = z.unknown().transform((value, ctx): { text: string; lang?: "zh" | "en" } => {
  const record = typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  if (record && "messages" in record) {
    const parsed = ChatTransportBody.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    const last = parsed.data.messages.at(-1);
    if (!last || last.role !== "user") {
      ctx.addIssue({ code: "custom", path: ["messages"], message: "the last message must be the user's" });
      return z.NEVER;
    }
    const text = last.parts
      .flatMap((p) => (p.type === "text" && typeof p.text === "string" ? [p.text] : []))
      .join("\n\n");
    if (text.trim() === "") {
      ctx.addIssue({ code: "custom", path: ["messages"], message: "the last user message has no text" });
      return z.NEVER;
    }
    return parsed.data.lang ? { text, lang: parsed.data.lang } : { text };
  }
  if (record && "text" in record) {
    const parsed = TextMessageBody.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return parsed.data.lang ? { text: parsed.data.text, lang: parsed.data.lang } : { text: parsed.data.text };
  }
  ctx.addIssue({ code: "custom", path: [], message: EITHER_FORM });
  return z.NEVER;
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/** `POST /api/sessions/:id/approvals/:approvalId` body. */
export const ApprovalBody = z.discriminatedUnion("decision", [
  z.object({ decision: z.enum(["allow", "always"]) }).strict(),
  z.object({ decision: z.literal("edit"), input: z.json() }).strict(),
  z.object({ decision: z.literal("deny"), reason: z.string().max(500).optional() }).strict(),
]);
export type ApprovalBody = z.infer<typeof ApprovalBody>;

/**
 * `Last-Event-ID` request header of a stream resume (an EventSource reconnecting): the index of the
 * last event the client holds, so the replay starts after it.
 */
export const LastEventId = z
  .string()
  .regex(/^\d{1,12}$/, "Last-Event-ID must be a non-negative integer (an event index)")
  .transform((v) => Number(v) + 1);

/** `GET /api/sessions/:id/stream` query. */
export const StreamQuery = z.object({
  from: z
    .string()
    .regex(/^\d{1,12}$/, "from must be a non-negative integer")
    .transform(Number)
    .optional(),
});
export type StreamQuery = z.infer<typeof StreamQuery>;

/** `GET /api/sessions/:id/trace` query: the turn whose trace to read (all turns without it). */
export const TraceQuery = z.object({
  turn: z
    .string()
    .regex(/^t_[0-9a-z]{26}$/, "turn must be a turn id (t_…)")
    .optional(),
});
export type TraceQuery = z.infer<typeof TraceQuery>;

/**
 * `GET /api/sessions/:id/turn` (and `/api/shares/:token/turn`) query: a long-poll of the session's
 * turn state. `after` is the key the caller holds (answer at once when it differs), `wait` the
 * seconds to wait for a change (0–25, default 20).
 */
export const TurnWatchQuery = z.object({
  after: z.string().max(80).optional(),
  wait: z
    .string()
    .regex(/^\d{1,2}$/, "wait must be whole seconds, 0–25")
    .transform(Number)
    .refine((n) => n <= 25, "wait must be at most 25 seconds")
    .optional(),
});
export type TurnWatchQuery = z.infer<typeof TurnWatchQuery>;

/** The long-poll's answer: `key` = `<turnId>:<status>` of the last turn ("" before any turn). */
export const TurnWatch = z.object({
  key: z.string(),
  turn: z
    .object({
      id: z.string(),
      status: z.enum(["running", "awaiting_approval", "done", "cancelled", "error", "rounds_exceeded"]),
    })
    .nullable(),
});
export type TurnWatch = z.infer<typeof TurnWatch>;

/** `POST /api/sessions/:id/cancel` answer. */
export const CancelResult = z.object({ cancelled: z.boolean() });
export type CancelResult = z.infer<typeof CancelResult>;

/** `PATCH /api/sessions/:id` answer. */
export const UpdatedSession = z.object({ id: z.string(), title: z.string(), profile: z.string().nullable() });
export type UpdatedSession = z.infer<typeof UpdatedSession>;

/** Usage figures of a day and model, or their totals. */
export const UsageFigures = z.object({
  turns: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type UsageFigures = z.infer<typeof UsageFigures>;

/** What model calls were for (every call is counted once, under one purpose). */
export const UsagePurpose = z.enum(["turn", "subagent", "report", "summary", "memory"]);

/**
 * `GET /api/usage?days=N`: the caller's usage per day, model and purpose since `from`, with totals
 * (all purposes) and totals per purpose. `turns` counts turns on `turn` rows and model calls on the
 * others; the totals' `turns` counts turns only.
 */
export const UsageReport = z.object({
  days: z.number().int(),
  from: z.string(),
  totals: UsageFigures,
  byPurpose: z.partialRecord(UsagePurpose, UsageFigures).optional(),
  rows: z.array(UsageFigures.extend({ day: z.string(), model: z.string(), purpose: UsagePurpose.optional() })),
});
export type UsageReport = z.infer<typeof UsageReport>;

/** `GET /api/workspace/stat?path=`: what is at a workspace path (for `write_file`'s approval). */
export const WorkspaceStat = z.object({
  path: z.string(),
  exists: z.boolean(),
  size: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type WorkspaceStat = z.infer<typeof WorkspaceStat>;
