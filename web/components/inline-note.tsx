/** A quiet inline note: a retry, a fallback to another model, a compaction, a guard stop, a system notice. */
import { useT } from "../lib/lang-store";
import type { NoteBlock } from "../lib/message-view";

function s(v: unknown): string {
  return typeof v === "string" || typeof v === "number" ? String(v) : "";
}

/** One note line. */
export function InlineNote({ note }: { note: NoteBlock }) {
  const { t } = useT();
  const d = note.data;
  const reason = s(d.reason) + (d.status !== null && d.status !== undefined ? ` ${s(d.status)}` : "");
  const text =
    note.note === "retry"
      ? t("noteRetry", { reason, delay: typeof d.delayMs === "number" ? `${(d.delayMs / 1000).toFixed(1)} s` : "…" })
      : note.note === "fallback"
        ? t("noteFallback", { from: s(d.from), to: s(d.to), reason })
        : note.note === "compaction"
          ? t("noteCompaction")
          : note.note === "guard"
            ? t("noteGuard", { reason: s(d.reason) || s(d.message) })
            : t("noteNotification", { text: s(d.text) || s(d.message) });
  return (
    <p className={`inline-note inline-note--${note.note}`} data-testid="inline-note">
      <span aria-hidden="true">ⓘ</span> {text}
    </p>
  );
}
