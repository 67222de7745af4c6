/** One session in the sidebar: open it, rename it inline, delete it after confirming. */
import type { SessionSummary } from "@contracts/api";
import { useState } from "react";
import { errorMessage } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import { chatPath, navigate } from "../lib/router";
import { deleteSession, renameSession } from "../lib/sessions-store";
import { ConfirmDialog } from "./confirm-dialog";

// One formatter per language: making one loads locale data (tens of ms on a slow machine), so not per row.
const formatters = new Map<string, Intl.RelativeTimeFormat>();

function ago(iso: string, lang: "zh" | "en"): string {
  const ms = Date.now() - Date.parse(iso);
  let rtf = formatters.get(lang);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(lang === "zh" ? "zh-CN" : "en", { numeric: "auto" });
    formatters.set(lang, rtf);
  }
  const min = Math.round(ms / 60_000);
  if (Math.abs(min) < 60) return rtf.format(-min, "minute");
  const h = Math.round(min / 60);
  if (Math.abs(h) < 24) return rtf.format(-h, "hour");
  return rtf.format(-Math.round(h / 24), "day");
}

/** A session row. */
export function SessionRow({
  session,
  active,
  onOpen,
}: {
  session: SessionSummary;
  active: boolean;
  onOpen: () => void;
}) {
  const { t, lang } = useT();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.title);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    const title = draft.trim();
    if (title === "" || title === session.title) return setEditing(false);
    try {
      await renameSession(session.id, title);
      setEditing(false);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const remove = async () => {
    setConfirming(false);
    try {
      await deleteSession(session.id);
      if (active) navigate("/", { replace: true });
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <li
      className={active ? "session-row session-row--active" : "session-row"}
      data-testid="session-row"
      data-session-id={session.id}
    >
      {editing ? (
        <form
          className="session-rename"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label className="visually-hidden" htmlFor={`rename-${session.id}`}>
            {t("renameTitle")}
          </label>
          <input
            id={`rename-${session.id}`}
            value={draft}
            maxLength={200}
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && setEditing(false)}
          />
          <button type="submit">{t("save")}</button>
        </form>
      ) : (
        <a
          href={chatPath(session.id)}
          aria-current={active ? "page" : undefined}
          onClick={(e) => {
            e.preventDefault();
            navigate(chatPath(session.id));
            onOpen();
          }}
        >
          <span className="session-title">{session.title}</span>
          <time className="session-time" dateTime={session.updatedAt}>
            {ago(session.updatedAt, lang)}
          </time>
        </a>
      )}
      {!editing && (
        <div className="session-actions">
          <button
            type="button"
            className="icon-button"
            aria-label={`${t("rename")}: ${session.title}`}
            title={t("rename")}
            onClick={() => {
              setDraft(session.title);
              setEditing(true);
            }}
          >
            ✎
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`${t("delete")}: ${session.title}`}
            title={t("delete")}
            onClick={() => setConfirming(true)}
          >
            ✕
          </button>
        </div>
      )}
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={t("deleteConfirmTitle")}
          body={t("deleteConfirmBody", { title: session.title })}
          confirmLabel={t("delete")}
          cancelLabel={t("cancel")}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </li>
  );
}
