/** One session: the conversation, the composer with Stop, the approval dialog, usage and tasks. */
import { useMemo, useState } from "react";
import { ApprovalDialog } from "../components/approval-dialog";
import { Composer } from "../components/composer";
import { MessageList } from "../components/message-list";
import { ProfileSwitch } from "../components/profile-switch";
import { AuditBadge } from "../components/audit-badge";
import { ShareButton } from "../components/share-button";
import { StatusLine } from "../components/status-line";
import { TasksPanel } from "../components/tasks-panel";
import { useSession } from "../hooks/use-session";
import { useTasks } from "../hooks/use-tasks";
import { useT } from "../lib/lang-store";
import { useDeskT } from "../lib/desk-strings";
import { downloadMarkdown } from "../components/message-tools";
import { fileNameOf, transcriptMarkdown } from "../lib/transcript-markdown";
import { collectTasks, pendingApproval, toBlocks, type ToolBlock } from "../lib/message-view";

/** The chat page of `/c/:id`. */
export function ChatPage({ sessionId }: { sessionId: string }) {
  const { t } = useT();
  const s = useSession(sessionId);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<ToolBlock | null>(null);
  const [tasksOpen, setTasksOpen] = useState(false);
  const desk = useDeskT();

  const liveMessage = s.live?.message ?? null;
  const pending = useMemo(() => (liveMessage ? pendingApproval(toBlocks(liveMessage.parts)) : null), [liveMessage]);
  const waiting = s.live !== null && s.live.state.pendingApprovals.length > 0;
  const dialogBlock = reviewing ?? (pending && pending.approvalId !== dismissed && waiting ? pending : null);
  const history = s.history;
  const liveTasks = useMemo(
    () => collectTasks(liveMessage ? [...history, liveMessage] : history),
    [history, liveMessage],
  );
  const tasks = useTasks(sessionId, liveTasks, history.length);
  const running = s.live !== null && !s.live.state.ended;
  const busy = running ? (waiting ? t("busyApproval") : t("busyRunning")) : s.loading ? t("loading") : null;
  const lastFinish = s.history.at(-1)?.metadata;
  const model = typeof lastFinish?.model === "string" ? lastFinish.model : null;

  if (s.notFound) return <p className="page-message">{t("notFound")}</p>;
  return (
    <div className="chat">
      <div className="chat-main">
        <header className="chat-head">
          <h1 className="chat-title">
            {s.title || "…"} <ShareButton sessionId={sessionId} />
          </h1>
          {!s.loading && <ProfileSwitch profile={s.profile} onSwitch={s.setProfile} />}
          <button
            type="button"
            className="small tasks-toggle"
            data-testid="tasks-toggle"
            aria-expanded={tasksOpen}
            onClick={() => setTasksOpen(!tasksOpen)}
          >
            {desk.t("tasksToggle", { n: tasks.length })}
          </button>
          <button
            type="button"
            className="small"
            data-testid="export-transcript"
            disabled={s.history.length === 0}
            onClick={() =>
              downloadMarkdown(
                fileNameOf(s.title),
                transcriptMarkdown(s.title, s.history, {
                  user: t("you"),
                  assistant: t("assistant"),
                  notice: t("systemNotice"),
                }),
              )
            }
          >
            {desk.t("exportTranscript")}
          </button>
        </header>
        <AuditBadge target={{ sessionId }} version={s.history.length} />
        {s.loadError && (
          <p className="inline-error" role="alert">
            {t("loadFailed", { error: s.loadError })}
          </p>
        )}
        <MessageList
          history={s.history}
          live={s.live}
          onReview={setReviewing}
          onRetry={() => s.lastUserText && void s.send(s.lastUserText)}
          hasOlder={s.hasOlder}
          loadingOlder={s.loadingOlder}
          onLoadOlder={() => void s.loadOlder()}
        />
        {s.sendError && (
          <p className="inline-error" role="alert" data-testid="send-error">
            {t("sendFailed", { error: s.sendError })}
          </p>
        )}
        <Composer busy={busy} running={running} onSend={(text) => void s.send(text)} onStop={() => void s.stop()} />
        <StatusLine usage={s.usage} turn={s.live?.state.usage ?? s.carried} model={model} />
      </div>
      <TasksPanel tasks={tasks} open={tasksOpen} onClose={() => setTasksOpen(false)} />
      {dialogBlock?.approvalId && (
        <ApprovalDialog
          key={dialogBlock.approvalId}
          block={dialogBlock}
          sessionTitle={s.title}
          onDecide={async (body) => {
            if (!dialogBlock.approvalId) return;
            await s.decide(dialogBlock.approvalId, body);
            setReviewing(null);
            setDismissed(dialogBlock.approvalId);
          }}
          onClose={() => {
            setReviewing(null);
            setDismissed(dialogBlock.approvalId);
          }}
        />
      )}
    </div>
  );
}
