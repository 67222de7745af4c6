/**
 * A finished background task's result, fetched on demand and drawn as research: a screening or a
 * backtest view, anything else (or a result that does not parse) as collapsible JSON. Opened from
 * the tasks panel and from the chat (the notice of a finished task, the background tool's card).
 */
import { BacktestResult } from "@contracts/backtest";
import { ScreeningResult } from "@contracts/screening";
import { useEffect, useRef, useState } from "react";
import { api, errorMessage } from "../lib/api-client";
import { taskKindKey, useDeskT } from "../lib/desk-strings";
import { BacktestView } from "./backtest-view";
import { JsonView } from "./json-view";
import { ScreeningView } from "./screening-view";

/** The result body of a task kind. */
export function ResultBody({ kind, result }: { kind: string; result: unknown }) {
  const { t } = useDeskT();
  if (kind === "screen_stocks") {
    const parsed = ScreeningResult.safeParse(result);
    if (parsed.success) return <ScreeningView result={parsed.data} />;
  }
  if (kind === "run_backtest") {
    const parsed = BacktestResult.safeParse(result);
    if (parsed.success) return <BacktestView result={parsed.data} />;
  }
  return <JsonView label={t("rawResult")} value={result} open />;
}

/** A dialog with a task's result, loaded when opened. */
export function TaskResultDialog({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const { t } = useDeskT();
  const ref = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<{ kind: string; result: unknown } | { error: string } | null>(null);
  useEffect(() => {
    ref.current?.showModal();
    let live = true;
    api
      .task(taskId)
      .then((task) => {
        if (!live) return;
        if (!task) setState({ error: taskId });
        else setState({ kind: task.kind, result: task.result ?? task.error ?? null });
      })
      .catch((e: unknown) => live && setState({ error: errorMessage(e) }));
    return () => {
      live = false;
    };
  }, [taskId]);
  const kindKey = state && "kind" in state ? taskKindKey(state.kind) : null;
  return (
    <dialog ref={ref} className="dialog result-dialog" data-testid="task-result" onClose={onClose}>
      <header className="result-head">
        <h2>{kindKey ? t(kindKey) : t("viewResult")}</h2>
        <button type="button" className="small" onClick={() => ref.current?.close()}>
          {t("hideResult")}
        </button>
      </header>
      {state === null ? (
        <p className="muted">…</p>
      ) : "error" in state ? (
        <p className="inline-error">{state.error}</p>
      ) : (
        <ResultBody kind={state.kind} result={state.result} />
      )}
    </dialog>
  );
}

/** A "view result" button that opens the dialog. */
export function TaskResultButton({ taskId }: { taskId: string }) {
  const { t } = useDeskT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="link-button small" data-testid="view-result" onClick={() => setOpen(true)}>
        {t("viewResult")}
      </button>
      {open && <TaskResultDialog taskId={taskId} onClose={() => setOpen(false)} />}
    </>
  );
}
