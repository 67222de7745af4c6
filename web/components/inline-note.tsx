/** A quiet inline note: a retry, a fallback to another model, a compaction, a guard stop, a finished task. */
import { useT } from "../lib/lang-store";
import type { NoteBlock } from "../lib/message-view";
import { describeNote } from "../lib/note-text";

/** One note line. */
export function InlineNote({ note }: { note: NoteBlock }) {
  const { t } = useT();
  const { key, vars } = describeNote(note);
  return (
    <p className={`inline-note inline-note--${note.note}`} data-testid="inline-note" data-note={note.note}>
      <span aria-hidden="true">ⓘ</span> {t(key, vars)}
    </p>
  );
}
