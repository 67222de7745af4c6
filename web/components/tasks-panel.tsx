/**
 * Background tasks of the session (screenings, backtests, reports): a progress bar per task, its
 * stage, and its result on demand. Shows "no background tasks" when there are none.
 */
import { useState } from "react";
import { api, errorMessage } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import type { TaskPart } from "../lib/message-view";
import { JsonView } from "./json-view";

function TaskResult({ id }: { id: string }) {
  const { t } = useT();
  const [state, setState] = useState<{ result?: unknown; error?: string } | null>(null);
  if (state?.error) return <p className="inline-error small">{state.error}</p>;
  if (state) return <JsonView label={t("taskResult")} value={state.result} open />;
  return (
    <button
      type="button"
      className="link-button small"
      onClick={() => {
        setState({});
        api
          .task(id)
          .then((task) => setState({ result: task?.result ?? task?.error ?? null }))
          .catch((e: unknown) => setState({ error: errorMessage(e) }));
      }}
    >
      {t("taskResult")}
    </button>
  );
}

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
            <li key={task.id} className="task">
              <div className="task-line">
                <strong>{task.kind}</strong> <span className="muted">{task.status}</span>
              </div>
              <progress max={100} value={task.pct} aria-label={`${task.kind} ${Math.round(task.pct)}%`} />
              {task.stage && <p className="muted small">{task.stage}</p>}
              {task.status === "succeeded" && <TaskResult id={task.id} />}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
