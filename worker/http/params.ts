/**
 * Path parameters validated with their schema (`contracts/params.ts`) before use. A malformed id of
 * something the caller looks up answers the same 404 as an unknown one (nothing to learn); a malformed
 * free value (a symbol) answers 400 naming the parameter.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { issuesInChinese } from "../contracts/errors";
import { AppError } from "../lib/app-error";

/** `name`'s value parsed by `schema`; throws `onInvalid()` or, without it, a 400 naming the parameter. */
export function pathParam<S extends z.ZodType>(
  c: Context,
  name: string,
  schema: S,
  onInvalid?: (raw: string) => AppError,
): z.infer<S> {
  const raw = c.req.param(name) ?? "";
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (onInvalid) throw onInvalid(raw.slice(0, 80));
  const message = parsed.error.issues[0]?.message ?? "invalid";
  const zh = issuesInChinese(schema, raw, parsed.error.issues)[0]?.message ?? "无效";
  throw new AppError("invalid_input", 400, `${name}: ${message}`, {
    details: { field: name, messages: { en: `${name}: ${message}`, zh: `${name}：${zh}` } },
  });
}

/**
 * `message` named by `field` (`field: message`) unless it already names one: a schema's own `kind: …`
 * or `field must …` (zod's `Too small: …` names none).
 */
function named(field: string, message: string, sep: string): string {
  return /^[A-Za-z_][\w.-]*[:：]/.test(message) || message.startsWith(`${field} `)
    ? message
    : `${field}${sep}${message}`;
}

/**
 * A query string parsed by `schema`; else a 400 naming the first failing field, its message in both UI
 * languages (`details.messages`: the same issue under zod's zh-CN locale, as `pathParam` does).
 */
export function queryParams<S extends z.ZodType>(schema: S, query: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join(".") || "query";
  const en = named(field, issue?.message ?? "invalid", ": ");
  const zh = named(field, issuesInChinese(schema, query, parsed.error.issues)[0]?.message ?? "无效", "：");
  throw new AppError("invalid_input", 400, en, { details: { field, messages: { en, zh } } });
}

/** A 400 whose message the web shows in either UI language (`details.messages`), naming `field`. */
export function invalidInput(field: string, en: string, zh: string): AppError {
  return new AppError("invalid_input", 400, en, { details: { field, messages: { en, zh } } });
}
