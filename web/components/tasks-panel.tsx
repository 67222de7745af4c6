/**
 * Background tasks of the session (screenings, backtests, reports): a progress bar per task, its
 * status and stage in the UI language, and its result as a research view on demand. On narrow
 * screens the panel is a drawer opened from the chat header.
 */
import { taskFailureText } from "@contracts/server-text";
import { useT } from "../lib/lang-store";
import { taskKindKey, taskStageKey, taskStatusKey, useDeskT } from "../lib/desk-strings";
import type { TaskPart } from "../lib/message-view";
import { TaskResultButton } from "./task-result";
import { useState } from "react";
import { disableTaskNotify, enableTaskNotify, taskNotifyOn } from "../lib/task-notify";

function NotifyToggle() {
  const { t } = useDeskT();
  const [on, setOn] = useState(taskNotifyOn);
  const [denied, setDenied] = useState(false);
  return (
    <label className="small notify-toggle">
      <input
        type="checkbox"
        checked={on}
        data-testid="notify-toggle"
        onChange={(e) => {
          if (!e.target.checked) {
            disableTaskNotify();
            setOn(false);
            return;
          }
          void enableTaskNotify().then((ok) => {
            setOn(ok);
            setDenied(!ok);
          });
        }}
      />{" "}
      {denied ? t("notifyDenied") : t("notifyOptIn")}
    </label>
  );
}

/** The panel. */
export function TasksPanel({
  tasks,
  open = false,
  onClose,
}: {
  tasks: readonly TaskPart[];
  open?: boolean;
  onClose?: () => void;
}) {
  const { t, lang } = useT();
  const d = useDeskT();
  const stageLabel = (stage: string) => {
    const key = taskStageKey(stage);
    return key ? d.t(key) : stage;
  };
  return (
    <aside
      className={`tasks-panel${open ? " tasks-panel--open" : ""}`}
      aria-labelledby="tasks-title"
      data-testid="tasks-panel"
    >
      <div className="tasks-head">
        <h2 id="tasks-title">{t("tasks")}</h2>
        {onClose && (
          <button type="button" className="icon-button tasks-close" aria-label={d.t("hideResult")} onClick={onClose}>
            ×
          </button>
        )}
      </div>
      {tasks.length === 0 ? (
        <p className="muted">{t("noTasks")}</p>
      ) : (
        <ul>
          {tasks.map((task) => {
            const kindKey = taskKindKey(task.kind);
            const statusKey = taskStatusKey(task.status);
            const kind = kindKey ? d.t(kindKey) : task.kind;
            return (
              <li key={task.id} className="task" data-testid="task-item" data-status={task.status}>
                <div className="task-line">
                  <strong>{kind}</strong>{" "}
                  <span className="muted" data-testid="task-status">
                    {statusKey ? d.t(statusKey) : task.status}
                  </span>
                </div>
                <progress max={100} value={task.pct} aria-label={`${kind} ${d.f.pct(task.pct / 100, 0)}`} />
                {/* An ended task's stage ("done", "failed") only repeats its status. */}
                {task.stage && (task.status === "queued" || task.status === "running") && (
                  <p className="muted small" data-testid="task-stage">
                    {stageLabel(task.stage)}
                  </p>
                )}
                {task.status === "failed" && task.error && (
                  <p className="inline-error small" data-testid="task-error">
                    {taskFailureText(task.error, lang)}
                  </p>
                )}
                {task.status === "succeeded" && <TaskResultButton taskId={task.id} />}
              </li>
            );
          })}
        </ul>
      )}
      <NotifyToggle />
    </aside>
  );
}
