/**
 * Error codes and the error envelope every HTTP error uses (CONTRACTS.md):
 * `{ "error": { "code": "...", "message": "..." } }`.
 */
import { z } from "zod";
import zhCN from "zod/v4/locales/zh-CN.js";

/** Stable machine-readable error codes shared by HTTP, tools and MCP. */
export const ErrorCode = z.enum([
  "invalid_input",
  "not_found",
  "conflict",
  "payload_too_large",
  "insufficient_data",
  "upstream_unavailable",
  "rate_limited",
  "unauthorized",
  "forbidden",
  "internal",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The JSON body of every error response. */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** A validation issue as zod reports it. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** How `formatIssues` names the root of what was checked (`(input)` for tool arguments, `(body)` for a request). */
export type IssueRoot = "(input)" | "(body)";

const ROOT_ZH: Record<IssueRoot, string> = { "(input)": "（输入）", "(body)": "（请求体）" };

/** Issues as one line the model or a person can read: `path: message; …` (`(input)` for the root). */
export function formatIssues(issues: readonly Issue[], o: { root?: IssueRoot; lang?: "zh" | "en" } = {}): string {
  const root = o.root ?? "(input)";
  const rootName = o.lang === "zh" ? ROOT_ZH[root] : root;
  const sep = o.lang === "zh" ? "；" : "; ";
  return issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join(".") : rootName}: ${i.message}`).join(sep);
}

/** The schemas' own messages (`.refine(…, "…")`, `{ error: "…" }`) in Chinese; zod's locale does not reach them. */
const CUSTOM_ZH: Record<string, string> = {
  "date is not a real calendar day": "不是真实存在的日期",
  "start must not be after end": "开始日期不能晚于结束日期",
  "buy date is not a calendar date": "买入日期不是真实存在的日期",
  "give a title or a profile": "请给出标题或配置",
  "text must not be empty": "文本不能为空",
  "user must not contain whitespace": "用户名不能含空白字符",
  "must be an http(s) URL": "必须是 http(s) 网址",
  "must be a share token": "必须是分享令牌",
  "keywords must not contain commas": "关键词不能含逗号",
  "give keywords or text": "请给出关键词或文本",
  "kind: must be stock or index": "kind：必须是 stock 或 index",
  "bars: must be an array of bars": "bars：必须是 K 线数组",
  "benchmark: must be an array of bars": "benchmark：必须是 K 线数组",
};

let zhLocale: z.core.$ZodErrorMap | undefined;

/**
 * The issues of parsing `input` with `schema` in Chinese: the same parse under zod's zh-CN locale (so
 * each message is built from the same issue, received types included), the schemas' own messages
 * from `CUSTOM_ZH`. `issues` (the English parse's) is answered when the parse now succeeds.
 */
export function issuesInChinese(schema: z.ZodType, input: unknown, issues: readonly Issue[]): readonly Issue[] {
  zhLocale ??= zhCN().localeError;
  const parsed = schema.safeParse(input, { error: zhLocale });
  const zh = parsed.success ? issues : parsed.error.issues;
  return zh.map((i) => ({ path: i.path, message: CUSTOM_ZH[i.message] ?? i.message }));
}

/** The issues in both UI languages, each formatted by `formatIssues` (`details.messages`, `toolMetadata.messages`). */
export function issueMessages(
  schema: z.ZodType,
  input: unknown,
  issues: readonly Issue[],
  root: IssueRoot = "(input)",
): { en: string; zh: string } {
  return {
    en: formatIssues(issues, { root }),
    zh: formatIssues(issuesInChinese(schema, input, issues), { root, lang: "zh" }),
  };
}
