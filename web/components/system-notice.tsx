/** A finished background task reported into the session: a system notice, not the person's own message. */
import { noticeText } from "@contracts/server-text";
import { useT } from "../lib/lang-store";
import { userText, type PartLike } from "../lib/message-view";
import { TaskResultButton } from "./task-result";

/** The notice in place of a user bubble. */
export function SystemNotice({ parts, taskId }: { parts: readonly PartLike[]; taskId?: string | undefined }) {
  const { t, lang } = useT();
  const text = userText(parts);
  // The server writes the result summary in English (the model reads it too); it is shown in the UI's
  // language line by line, a line no template knows as written.
  const failed = /^Background task \S+ \(\S+\) failed:/.test(text);
  return (
    <aside className="system-notice" data-testid="system-notice" aria-label={t("systemNotice")}>
      <span className="system-notice-label">ⓘ {t("systemNotice")}</span>
      {taskId && (
        <p className="system-notice-head" data-testid="system-notice-head">
          {t(failed ? "noticeTaskFailed" : "noticeTaskDone", { task: taskId })}
        </p>
      )}
      <p className="system-notice-text">{noticeText(text, lang)}</p>
      {taskId && <TaskResultButton taskId={taskId} />}
    </aside>
  );
}
