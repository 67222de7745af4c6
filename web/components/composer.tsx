/**
 * The message box: Enter sends, Shift+Enter adds a line (and Enter while an IME is composing
 * Chinese only confirms the characters). Disabled with its reason while a turn runs. Typing `/` at
 * the start lists skills: ↑/↓ move, Tab completes `/name `, Enter sends the highlighted skill, Esc closes.
 */
import { MAX_MESSAGE_CHARS } from "@contracts/api";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { useT } from "../lib/lang-store";
import { useSkills } from "../lib/skills-store";
import { completeSkill, matchSkills, moveActive, slashQuery } from "../lib/slash-menu";
import { SkillMenu } from "./skill-menu";

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
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const [moveCaret, setMoveCaret] = useState<number | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const inputId = useId();
  const menuId = useId();
  const query = slashQuery(text, caret);
  const { skills } = useSkills(query !== null);
  const items = query === null ? [] : matchSkills(skills ?? [], query);
  const menuOpen = query !== null && closedAt !== text;
  const activeIndex = Math.min(active, Math.max(0, items.length - 1));
  const canSend = props.busy === null && text.trim() !== "" && text.length <= MAX_MESSAGE_CHARS;

  useLayoutEffect(() => {
    if (moveCaret === null || !box.current) return;
    box.current.setSelectionRange(moveCaret, moveCaret);
    setCaret(moveCaret);
    setMoveCaret(null);
  }, [moveCaret]);

  const submit = () => {
    if (!canSend) return;
    props.onSend(text);
    setText("");
    setCaret(0);
  };
  const complete = (name: string) => {
    const next = completeSkill(text, name);
    setText(next);
    setActive(0);
    setMoveCaret(name.length + 2);
  };
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {menuOpen && (
        <SkillMenu id={menuId} items={items} active={activeIndex} loading={skills === null} onPick={complete} />
      )}
      <label htmlFor={inputId} className="visually-hidden">
        {t("composerLabel")}
      </label>
      <textarea
        ref={box}
        id={inputId}
        data-testid="composer"
        value={text}
        rows={2}
        placeholder={t("composerPlaceholder")}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={menuOpen}
        aria-controls={menuOpen ? menuId : undefined}
        aria-activedescendant={menuOpen && items.length > 0 ? `${menuId}-${activeIndex}` : undefined}
        aria-describedby={props.busy ? hintId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (e.nativeEvent.isComposing) return;
          if (menuOpen) {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              setActive(moveActive(activeIndex, e.key === "ArrowDown" ? 1 : -1, items.length));
              return;
            }
            if (e.key === "Escape") {
              e.preventDefault();
              setClosedAt(text);
              return;
            }
            const chosen = items[activeIndex];
            if (chosen && e.key === "Tab") {
              e.preventDefault();
              complete(chosen.name);
              return;
            }
            // Enter sends the highlighted skill with whatever follows it (`/screen` + Enter runs it).
            if (chosen && e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              const full = completeSkill(text, chosen.name).trim();
              if (props.busy !== null || full.length > MAX_MESSAGE_CHARS) return complete(chosen.name);
              props.onSend(full);
              setText("");
              setCaret(0);
              return;
            }
          }
          if (e.key === "Enter" && !e.shiftKey) {
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
