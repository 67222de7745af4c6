/**
 * Background tasks of the session, from `data-task` parts (progress bar per task). The background
 * work capability has not landed yet, so today it shows "no background tasks".
 */
import { useT } from "../lib/lang-store";
import type { TaskPart } from "../lib/message-view";

/** The panel. */
export function TasksPanel({ tasks }: { tasks: readonly TaskPart[] }) {
  const { t } = useT();
  return (
    <aside className="tasks-panel" aria-labelledby="tasks-title" data-testid="tasks-panel">
      <h2 id="tasks-title">{t("tasks")}</h2>
      {tasks.length === 0 ? (
        <p className="muted">{t("noTasks")}</p>
      ) : (
        <ul>
          {tasks.map((task) => (
            <li key={task.id}>
              <div className="task-line">
                <strong>{task.kind}</strong> <span className="muted">{task.status}</span>
              </div>
              <progress max={100} value={task.pct} aria-label={`${task.kind} ${task.pct}%`} />
              {task.stage && <p className="muted small">{task.stage}</p>}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
