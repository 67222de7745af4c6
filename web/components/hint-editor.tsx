/** Edits a scenario hint: its keywords (one comma-separated field) and text; the server's reason shows on a 400. */
import { useId, useState } from "react";
import { useSettingsT } from "../hooks/use-settings-t";
import { errorMessage } from "../lib/api-client";
import { parseKeywords } from "../lib/skill-markdown";

/** The editor. */
export function HintEditor({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: { keywords: readonly string[]; text: string };
  submitLabel: string;
  onSave: (hint: { keywords: string[]; text: string }) => Promise<void>;
  onCancel?: (() => void) | undefined;
}) {
  const { t } = useSettingsT();
  const [keywords, setKeywords] = useState(initial.keywords.join(", "));
  const [text, setText] = useState(initial.text);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keywordsId = useId();
  const textId = useId();
  return (
    <form
      className="hint-editor"
      data-testid="hint-editor"
      onSubmit={(e) => {
        e.preventDefault();
        setSaving(true);
        setError(null);
        onSave({ keywords: parseKeywords(keywords), text: text.trim() }).then(
          () => {
            setSaving(false);
            if (!onCancel) {
              setKeywords("");
              setText("");
            }
          },
          (err: unknown) => {
            setSaving(false);
            setError(errorMessage(err));
          },
        );
      }}
    >
      <label htmlFor={keywordsId}>{t("hintKeywords")}</label>
      <input
        id={keywordsId}
        data-testid="hint-keywords"
        value={keywords}
        onChange={(e) => setKeywords(e.target.value)}
      />
      <label htmlFor={textId}>{t("hintText")}</label>
      <textarea
        id={textId}
        data-testid="hint-text"
        rows={3}
        maxLength={600}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {error && (
        <p className="inline-error" role="alert" data-testid="hint-error">
          {t("hintRejected", { error })}
        </p>
      )}
      <div className="dialog-actions">
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={saving}>
            {t("hintCancel")}
          </button>
        )}
        <button type="submit" className="primary" disabled={saving} data-testid="hint-save">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
