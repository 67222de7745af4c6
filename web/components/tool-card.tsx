/**
 * One tool call: display name (zh/en), input, status with spinner and duration, and its output —
 * the purpose-built analysis view for Wyckoff analyses, collapsible JSON otherwise; errors visible.
 */
import { useState } from "react";
import { analysisOf } from "../lib/analysis-of";
import { useT } from "../lib/lang-store";
import type { ToolBlock } from "../lib/message-view";
import type { StringKey } from "../lib/strings";
import { toolTitle } from "../lib/tool-catalog";
import { AnalysisSummary } from "./analysis-summary";
import { JsonView } from "./json-view";
import { Spinner } from "./spinner";

const PHASE_LABEL: Record<ToolBlock["phase"], StringKey> = {
  input: "toolPreparing",
  running: "toolRunning",
  approval: "toolWaiting",
  done: "toolDone",
  error: "toolError",
  denied: "toolDenied",
};

function inputSummary(input: unknown): string {
  if (typeof input !== "object" || input === null) return input === undefined ? "" : JSON.stringify(input);
  return Object.entries(input)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A tool card. `durationMs` is the live-measured (or server-reported) duration, when known. */
export function ToolCard({
  block,
  durationMs,
  onReview,
}: {
  block: ToolBlock;
  durationMs: number | null;
  onReview?: (() => void) | undefined;
}) {
  const { t, lang } = useT();
  const analysis = block.phase === "done" ? analysisOf(block.output) : null;
  const [open, setOpen] = useState(true);
  const busy = block.phase === "input" || block.phase === "running";
  const bodyId = `tool-body-${block.toolCallId}`;
  return (
    <section
      className={`tool-card tool-card--${block.phase}`}
      data-testid="tool-card"
      data-tool={block.toolName}
      data-phase={block.phase}
      aria-label={toolTitle(block.toolName, lang)}
    >
      <header className="tool-head">
        <button
          type="button"
          className="tool-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
        >
          <span className="tool-chevron" aria-hidden="true">
            {open ? "▾" : "▸"}
          </span>
          <strong>{toolTitle(block.toolName, lang)}</strong> <code className="tool-name">{block.toolName}</code>
        </button>
        <span className="tool-status" data-testid="tool-status">
          {busy && <Spinner />}
          {t(PHASE_LABEL[block.phase])}
          {durationMs !== null && block.phase !== "approval" && <span className="muted"> · {seconds(durationMs)}</span>}
        </span>
        {block.phase === "approval" && onReview && (
          <button type="button" className="primary small" onClick={onReview}>
            {t("review")}
          </button>
        )}
      </header>
      <p className="tool-input" title={inputSummary(block.input)}>
        {inputSummary(block.input)}
      </p>
      {open && (
        <div id={bodyId} className="tool-body">
          {block.phase === "error" && (
            <p className="tool-error" role="alert">
              {block.errorText}
            </p>
          )}
          {analysis && <AnalysisSummary analysis={analysis} output={block.output} />}
          {block.input !== undefined && block.phase !== "input" && (
            <JsonView label={t("toolInput")} value={block.input} />
          )}
          {block.phase === "done" && <JsonView label={t("toolOutput")} value={block.output} />}
        </div>
      )}
    </section>
  );
}
