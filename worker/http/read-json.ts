/**
 * Reads a request body as JSON and validates it with a zod schema. Malformed JSON or a failing field
 * becomes a 400 envelope naming the field (malformed JSON: `details.reason` `invalid_json`), its message in
 * both UI languages (`details.messages`); it never reaches a handler, so nothing changes.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { formatIssues, issuesInChinese } from "../contracts/errors";
import { AppError } from "../lib/app-error";

/** What a body that does not parse as JSON is told, in each UI language. */
const NOT_JSON = { en: "request body is not valid JSON", zh: "请求体不是有效的 JSON" };

/** Parses and validates the JSON body; throws a 400 AppError on any problem. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    // `reason` is the stable code for this failure; `messages` says it in both UI languages.
    throw new AppError("invalid_input", 400, NOT_JSON.en, {
      details: { field: "(body)", reason: "invalid_json", messages: NOT_JSON },
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const first = issues[0];
    const field = first && first.path.length > 0 ? first.path.map(String).join(".") : "(body)";
    const en = first ? formatIssues([first], { root: "(body)" }) : "invalid body";
    // The message is the first issue; `messages` says it in both UI languages (the same parse in zh-CN).
    const zhFirst = issuesInChinese(schema, value, issues).slice(0, 1);
    const zh = zhFirst.length > 0 ? formatIssues(zhFirst, { root: "(body)", lang: "zh" }) : "请求体无效";
    throw new AppError("invalid_input", 400, en, {
      details: { field, issues: issues.map((i) => formatIssues([i], { root: "(body)" })), messages: { en, zh } },
    });
  }
  return parsed.data;
}
