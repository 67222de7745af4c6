/**
 * What a quiet inline note says: the string key and its values for a retry, a fallback, a
 * compaction (done, failed or messages cut), a guard stop or a finished background task. Pure.
 */
import type { NoteBlock } from "./message-view";
import type { StringKey } from "./strings";
import { formatTokens } from "./usage-format";

/** A note's text as a string key and its placeholder values. */
export interface NoteText {
  key: StringKey;
  vars: Record<string, string | number>;
}

function s(v: unknown): string {
  return typeof v === "string" || typeof v === "number" ? String(v) : "";
}

function n(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The text of one note. */
export function describeNote(note: NoteBlock): NoteText {
  const d = note.data;
  switch (note.note) {
    case "retry": {
      if (d.reason === "loop_guard") return { key: "noteGuardRetry", vars: { tool: s(d.tool), attempt: s(d.attempt) } };
      const reason = s(d.reason) + (d.status !== null && d.status !== undefined ? ` ${s(d.status)}` : "");
      const delay = n(d.delayMs);
      if (delay !== null && delay < 50) return { key: "noteRetryNow", vars: { reason } };
      // The delay as the server will wait it: milliseconds under a second, never rounded to "0.0 s".
      const shown = delay === null ? "…" : delay < 1000 ? `${Math.round(delay)} ms` : `${(delay / 1000).toFixed(1)} s`;
      return { key: "noteRetry", vars: { reason, delay: shown } };
    }
    case "fallback": {
      const reason = s(d.reason) + (d.status !== null && d.status !== undefined ? ` ${s(d.status)}` : "");
      return { key: "noteFallback", vars: { from: s(d.from), to: s(d.to), reason } };
    }
    case "compaction": {
      if (d.failed === true) return { key: "noteCompactionFailed", vars: { reason: s(d.reason) } };
      const cut = n(d.truncatedMessages);
      if (cut !== null) return { key: "noteTruncated", vars: { count: cut } };
      const before = n(d.tokensBefore);
      const after = n(d.tokensAfter);
      if (before === null || after === null) return { key: "noteCompaction", vars: {} };
      return {
        key: "noteCompacted",
        vars: {
          before: formatTokens(before),
          after: formatTokens(after),
          messagesBefore: s(d.messagesBefore) || "?",
          messagesAfter: s(d.messagesAfter) || "?",
        },
      };
    }
    case "guard":
      if (d.kind === "doom_loop") return { key: "noteDoomLoop", vars: { tool: s(d.tool), count: s(d.count) || "?" } };
      if (typeof d.text === "string" && d.text !== "") return { key: "noteGuard", vars: { reason: d.text } };
      return { key: "noteGuard", vars: { reason: s(d.reason) || s(d.message) || s(d.tool) } };
    case "notification":
      return { key: "noteTaskFinished", vars: { task: s(d.taskId) || s(d.id) } };
    case "warning":
      return { key: "noteWarning", vars: { message: s(d.message) || s(d.kind) } };
  }
}
