/**
 * The message box: Enter sends, Shift+Enter adds a line (and Enter while an IME is composing
 * Chinese only confirms the characters). Disabled with its reason while a turn runs.
 */
import { MAX_MESSAGE_CHARS } from "@contracts/api";
import { useId, useState } from "react";
import { useT } from "../lib/lang-store";

/** The composer. `busy` is the reason sending is not possible now (null when it is). */
export function Composer(props: {
  busy: string | null;
  running: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  initial?: string;
}) {
  const { t } = useT();
  const [text, setText] = useState(props.initial ?? "");
  const hintId = useId();
  const inputId = useId();
  const canSend = props.busy === null && text.trim() !== "" && text.length <= MAX_MESSAGE_CHARS;
  const submit = () => {
    if (!canSend) return;
    props.onSend(text);
    setText("");
  };
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {t("composerLabel")}
      </label>
      <textarea
        id={inputId}
        data-testid="composer"
        value={text}
        rows={2}
        placeholder={t("composerPlaceholder")}
        aria-describedby={props.busy ? hintId : undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div className="composer-actions">
        {props.busy && (
          <span id={hintId} className="composer-hint" role="status" data-testid="composer-busy">
            {props.busy}
          </span>
        )}
        {text.length > MAX_MESSAGE_CHARS && (
          <span className="composer-hint inline-error">
            {text.length} / {MAX_MESSAGE_CHARS}
          </span>
        )}
        {props.running ? (
          <button type="button" className="danger" onClick={props.onStop} data-testid="stop">
            ■ {t("stop")}
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!canSend} data-testid="send">
            {t("send")}
          </button>
        )}
      </div>
    </form>
  );
}
