/** The sessions list: newest first, a "new session" button, the current one highlighted. */
import { useEffect } from "react";
import { useT } from "../lib/lang-store";
import { navigate } from "../lib/router";
import { refreshSessions, useSessions } from "../lib/sessions-store";
import { SessionRow } from "./session-row";

/** The sidebar. `open` matters on narrow screens, where it slides over the page. */
export function SessionSidebar({
  activeId,
  open,
  onClose,
}: {
  activeId: string | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useT();
  const { sessions, error } = useSessions();
  useEffect(() => {
    void refreshSessions();
  }, []);
  return (
    <nav className={open ? "sidebar sidebar--open" : "sidebar"} aria-label={t("sessions")}>
      <button
        type="button"
        className="primary new-session"
        onClick={() => {
          navigate("/");
          onClose();
        }}
      >
        + {t("newSession")}
      </button>
      <h2 className="sidebar-heading">{t("sessions")}</h2>
      {error && <p className="inline-error">{t("loadFailed", { error })}</p>}
      {sessions === null && !error && <p className="muted">{t("loading")}</p>}
      {sessions?.length === 0 && <p className="muted">{t("noSessions")}</p>}
      <ul className="session-list" data-testid="session-list">
        {sessions?.map((s) => (
          <SessionRow key={s.id} session={s} active={s.id === activeId} onOpen={onClose} />
        ))}
      </ul>
    </nav>
  );
}
