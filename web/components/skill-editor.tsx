/** Edits one skill as markdown with front matter; the server's rejection reason (400/409) shows under it. */
import { useId, useState } from "react";
import { useSettingsT } from "../hooks/use-settings-t";
import { errorMessage } from "../lib/api-client";

/** The editor. `onSave` rejects with the server's reason, shown in place. */
export function SkillEditor({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (markdown: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useSettingsT();
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const errorId = useId();
  return (
    <form
      className="skill-editor"
      data-testid="skill-editor"
      onSubmit={(e) => {
        e.preventDefault();
        setSaving(true);
        setError(null);
        onSave(text).then(
          () => setSaving(false),
          (err: unknown) => {
            setSaving(false);
            setError(errorMessage(err));
          },
        );
      }}
    >
      <label htmlFor={fieldId}>{t("skillMarkdown")}</label>
      <textarea
        id={fieldId}
        data-testid="skill-markdown"
        value={text}
        rows={10}
        spellCheck={false}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      {error && (
        <p id={errorId} className="inline-error" role="alert" data-testid="skill-error">
          {t("skillRejected", { error })}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} disabled={saving}>
          {t("skillCancel")}
        </button>
        <button type="submit" className="primary" disabled={saving || text.trim() === ""} data-testid="skill-save">
          {t("skillSave")}
        </button>
      </div>
    </form>
  );
}
