/**
 * What opens or steers a turn, before the controller acts on it: the title a first message gives the
 * session, the prompt a task's notification becomes, and a person's approval answer checked against
 * the tool's input schema.
 */
import { issueMessages } from "../contracts/errors";
import { findTool } from "../tools/registry";
import type { ApprovalDecision } from "./tool-executor";

/** The title a session starts with; the first message renames it. */
export const DEFAULT_TITLE = "New session";

/** Longest title taken from a first message (characters). */
const TITLE_CHARS = 40;

/** The title a first message gives the session: its text on one line, cut to TITLE_CHARS. */
export function titleFrom(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS);
}

/** What the model reads for a task's notification: marked as system text, never as the user's words. */
export function notificationPrompt(taskId: string, text: string): string {
  return `[SYSTEM NOTIFICATION - NOT USER INPUT]\n<task-notification id="${taskId}">\n${text}\n</task-notification>\nReport this result to the user briefly.`;
}

/** A user's answer to a pending approval, before its edited input is checked. */
export type DecisionAnswer =
  | { decision: "allow" | "always" }
  | { decision: "edit"; input: unknown }
  | { decision: "deny"; reason?: string };

/** A refusal the RPC surface maps to the error envelope. */
export interface TurnRefusal {
  ok: false;
  code: "not_found" | "conflict" | "invalid_input";
  message: string;
  /** The message in both UI languages, when it was built in both (the envelope's `details.messages`). */
  messages?: { en: string; zh: string };
}

/** An approval answer with its edited input checked against the tool's input schema. */
export function checkDecision(toolName: string, answer: DecisionAnswer): ApprovalDecision | TurnRefusal {
  if (answer.decision !== "edit") return answer;
  const schema = findTool(toolName)?.spec.input;
  const parsed = schema?.safeParse(answer.input);
  if (!schema || !parsed?.success) {
    const why =
      schema && parsed?.error
        ? issueMessages(schema, answer.input, parsed.error.issues)
        : { en: "unknown tool", zh: "未知工具" };
    const messages = {
      en: `edited input is not valid for ${toolName}: ${why.en}`,
      zh: `修改后的参数对 ${toolName} 无效：${why.zh}`,
    };
    return { ok: false, code: "invalid_input", message: messages.en, messages };
  }
  return { decision: "edit", input: parsed.data };
}
