/** A finished background task reported into the session: a system notice, not the person's own message. */
import { useT } from "../lib/lang-store";
import { userText, type PartLike } from "../lib/message-view";
import { TaskResultButton } from "./task-result";

/** The notice in place of a user bubble. */
export function SystemNotice({ parts, taskId }: { parts: readonly PartLike[]; taskId?: string | undefined }) {
  const { t } = useT();
  return (
    <aside className="system-notice" data-testid="system-notice" aria-label={t("systemNotice")}>
      <span className="system-notice-label">ⓘ {t("systemNotice")}</span>
      <p>{userText(parts)}</p>
      {taskId && <TaskResultButton taskId={taskId} />}
    </aside>
  );
}
