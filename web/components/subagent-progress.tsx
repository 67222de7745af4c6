/** A sub-agent at work under its delegate call: who, the task, its tool calls (nested) and its text so far. */
import type { ReactNode } from "react";
import { useAgentName } from "../hooks/use-agent-name";
import { useT } from "../lib/lang-store";
import type { SubagentRun } from "../lib/message-view";
import { Markdown } from "./markdown";
import { Spinner } from "./spinner";

/** The sub-agent's part of a delegate card. `children` are its tool cards. */
export function SubagentProgress({
  run,
  streaming,
  children,
}: {
  run: SubagentRun;
  streaming: boolean;
  children?: ReactNode;
}) {
  const { t } = useT();
  const name = useAgentName();
  const working = run.status === "running";
  const status = working ? t("subagentRunning") : run.status === "error" ? t("subagentError") : t("subagentDone");
  return (
    <section
      className={`subagent subagent--${run.status}`}
      data-testid="subagent"
      data-agent={run.agent}
      data-status={run.status}
      aria-label={name(run.agent)}
    >
      <p className="subagent-head">
        <strong>{name(run.agent)}</strong>
        <span className="muted small">
          {working && streaming && <Spinner />} {status}
        </span>
      </p>
      {run.task && (
        <p className="subagent-task small">
          <span className="muted">{t("subagentTask")}:</span> {run.task}
        </p>
      )}
      {children}
      {run.text && (
        <div className="subagent-text" data-testid="subagent-text">
          <Markdown text={run.text} streaming={working && streaming} />
        </div>
      )}
    </section>
  );
}
