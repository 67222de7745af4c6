/**
 * The session's background tasks: listed from `GET /api/tasks?session=`, overlaid with the live
 * `data-task` progress of the running turn, refreshed when the turn changes and every few seconds
 * while any task is still queued or running.
 */
import { useEffect, useRef, useState } from "react";
import { taskKindKey, taskStatusKey, useDeskT } from "../lib/desk-strings";
import { notifyTaskEnded } from "../lib/task-notify";
import { api } from "../lib/api-client";
import type { TaskPart } from "../lib/message-view";

const POLL_MS = 4000;
/** How far along a status is: an ended task never goes back to queued or running. */
const RANK: Record<string, number> = { queued: 0, running: 1, succeeded: 2, failed: 2, cancelled: 2 };

/** Tasks, newest state per id. `live` are the turn's data-task parts; `version` changes force a reload. */
export function useTasks(sessionId: string, live: readonly TaskPart[], version: number): TaskPart[] {
  const [listed, setListed] = useState<{ sessionId: string; tasks: TaskPart[] }>({ sessionId, tasks: [] });
  const busy = listed.tasks.some((t) => t.status === "queued" || t.status === "running");
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      api
        .listTasks(sessionId, controller.signal)
        .then((tasks) => {
          setListed({
            sessionId,
            tasks: tasks.map((t) => ({
              id: t.id,
              kind: t.kind,
              status: t.status,
              stage: t.progress.stage,
              pct: t.progress.pct,
              ...(t.error ? { error: t.error } : {}),
            })),
          });
          if (busy) timer = setTimeout(load, POLL_MS);
        })
        .catch(() => {
          // the panel keeps what it had; the next change or poll tries again
        });
    };
    load();
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [sessionId, version, busy]);
  const byId = new Map((listed.sessionId === sessionId ? listed.tasks : []).map((t) => [t.id, t]));
  // The turn's data-task parts are newer while a task runs (progress); once the list says a task has
  // ended, that wins — the finished turn's last part still says "queued".
  for (const t of live) {
    const got = byId.get(t.id);
    if (!got || (RANK[t.status] ?? 0) >= (RANK[got.status] ?? 0)) byId.set(t.id, t);
  }
  const tasks = [...byId.values()];
  // A task seen open that has now ended: an opt-in browser notification (only when the tab is hidden).
  const { t } = useDeskT();
  const open = useRef(new Set<string>());
  useEffect(() => {
    for (const task of tasks) {
      const ended = task.status === "succeeded" || task.status === "failed" || task.status === "cancelled";
      if (!ended) open.current.add(task.id);
      else if (open.current.delete(task.id)) {
        const kind = taskKindKey(task.kind);
        const status = taskStatusKey(task.status);
        notifyTaskEnded(
          task.id,
          t("notifyTitle"),
          t("notifyBody", { kind: kind ? t(kind) : task.kind, status: status ? t(status) : task.status }),
        );
      }
    }
  });
  return tasks;
}
