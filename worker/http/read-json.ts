/**
 * Reads a request body as JSON and validates it with a zod schema. Malformed JSON or a failing field
 * becomes a 400 envelope naming the field; it never reaches a handler, so nothing changes.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../lib/app-error";

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string } {
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)";
  return { field, message: `${field}: ${issue.message}` };
}

/** Parses and validates the JSON body; throws a 400 AppError on any problem. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new AppError("invalid_input", 400, "request body is not valid JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const described = first ? describeIssue(first) : { field: "(body)", message: "invalid body" };
    throw new AppError("invalid_input", 400, described.message, {
      details: { field: described.field, issues: parsed.error.issues.map((i) => describeIssue(i).message) },
    });
  }
  return parsed.data;
}
