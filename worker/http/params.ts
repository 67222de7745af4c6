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
