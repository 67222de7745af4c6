/**
 * `/s/:token`: a shared session, read-only. The transcript with its tool cards and charts, and a
 * running turn followed live — but no composer, no approvals, no memory, traces or portfolio. Charts
 * read their bars through the share link (the API client sees the `/s/` path).
 */
import { AssistantMessage } from "../components/assistant-message";
import { AuditBadge } from "../components/audit-badge";
import { SystemNotice } from "../components/system-notice";
import { UserMessage } from "../components/user-message";
import { useSharedSession } from "../hooks/use-shared-session";
import { useIdT } from "../lib/identity-strings";
import { isNotification } from "../lib/message-view";
import "../identity.css";

/** The read-only page of a share link. */
export function SharePage({ token }: { token: string }) {
  const { t, lang } = useIdT();
  const view = useSharedSession(token);
  const expires = view.session?.shared.expiresAt;
  const waiting = view.live !== null && view.live.state.pendingApprovals.length > 0;
  return (
    <div className="shared-page" data-testid="share-page">
      <p className="shared-banner" role="note" data-testid="shared-banner">
        <strong>{t("sharedBanner")}</strong>
        {expires && (
          <span className="muted">
            {" · "}
            {t("sharedExpires", { at: new Date(expires).toLocaleString(lang === "zh" ? "zh-CN" : "en") })}
          </span>
        )}
      </p>
      {view.status === "loading" && <p className="page-message muted">{t("shareLoading")}</p>}
      {view.status === "gone" && (
        <p className="page-message" role="alert" data-testid="share-gone">
          {t("shareGone")}
        </p>
      )}
      {view.error && (
        <p className="inline-error" role="alert">
          {t("failed", { error: view.error })}
        </p>
      )}
      {view.session && view.status !== "gone" && (
        <article className="shared-transcript">
          <h1 className="chat-title">{view.session.title}</h1>
          <AuditBadge
            target={{ token }}
            version={view.history.length}
            downloadable={view.session.shared.audit === true}
          />
          <div className="shared-messages" role="log" aria-live="polite" data-testid="message-list">
            {view.history.map((m) =>
              m.role === "user" ? (
                isNotification(m.metadata) ? (
                  <SystemNotice key={m.id} parts={m.parts} />
                ) : (
                  <UserMessage key={m.id} parts={m.parts} />
                )
              ) : (
                <AssistantMessage key={m.id} message={m} turn={null} />
              ),
            )}
            {view.live && (
              <AssistantMessage message={view.live.message} turn={{ state: view.live.state, reconnecting: false }} />
            )}
          </div>
          {waiting && <p className="muted">{t("shareWaiting")}</p>}
        </article>
      )}
    </div>
  );
}
