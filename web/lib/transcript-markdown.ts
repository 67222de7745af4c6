/**
 * A message or a whole session as Markdown, for copying and exporting: the person's words, the
 * assistant's text, each tool call named with its outcome, finished-task notices quoted. Pure.
 */
import { isNotification, type PartLike } from "./message-view";

interface MessageLike {
  role: string;
  parts: readonly PartLike[];
  metadata?: Record<string, unknown> | undefined;
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
}

/** The Markdown of one message's parts (text as is, tool calls as one line each). */
export function messageMarkdown(m: MessageLike): string {
  const out: string[] = [];
  for (const raw of m.parts) {
    const p = rec(raw);
    const type = typeof p.type === "string" ? p.type : "";
    if (type === "text" && typeof p.text === "string") out.push(p.text);
    else if (type.startsWith("tool-") || type === "dynamic-tool") {
      const name = type === "dynamic-tool" ? String(p.toolName ?? "tool") : type.slice(5);
      const state = typeof p.state === "string" ? p.state : "";
      const outcome = state === "output-error" ? `error: ${String(p.errorText ?? "")}` : state.replace(/^output-/, "");
      out.push(`> 🔧 \`${name}\`${outcome ? ` — ${outcome}` : ""}`);
    }
  }
  return out.join("\n\n").trim();
}

/** A whole session as a Markdown document. */
export function transcriptMarkdown(
  title: string,
  messages: readonly MessageLike[],
  labels: { user: string; assistant: string; notice: string },
): string {
  const parts = [`# ${title || "wyckoff-edge"}`];
  for (const m of messages) {
    const body = messageMarkdown(m);
    if (!body) continue;
    if (m.role === "user" && isNotification(m.metadata))
      parts.push(`> **${labels.notice}:** ${body.replace(/\n/g, "\n> ")}`);
    else parts.push(`## ${m.role === "user" ? labels.user : labels.assistant}\n\n${body}`);
  }
  return `${parts.join("\n\n")}\n`;
}

/** A safe file name from a title. */
export function fileNameOf(title: string, suffix = ".md"): string {
  const base =
    title
      .replace(/[\\/:*?"<>|\s]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "transcript";
  return `${base}${suffix}`;
}
