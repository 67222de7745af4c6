/**
 * One tool call: display name (zh/en), input, status with spinner and duration, and its output —
 * the purpose-built analysis view for Wyckoff analyses, preview and index of a spilled result,
 * collapsible JSON otherwise; errors visible. A delegate call carries its sub-agent's progress with
 * the sub-agent's own calls nested under it; a sub-agent's call is labelled with the sub-agent.
 */
import { asClockReading, clockText, toolErrorText } from "@contracts/server-text";
import { useState } from "react";
import { useAgentName } from "../hooks/use-agent-name";
import { analysisOf } from "../lib/analysis-of";
import { useT } from "../lib/lang-store";
import type { ToolBlock } from "../lib/message-view";
import { spillOf } from "../lib/spill";
import type { StringKey } from "../lib/strings";
import { toolTitle } from "../lib/tool-catalog";
import { AnalysisSummary } from "./analysis-summary";
import { JsonView } from "./json-view";
import { SpilledResult } from "./spilled-result";
import { Spinner } from "./spinner";
import { SubagentProgress } from "./subagent-progress";

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

/** `get_time`'s answer as a clock line in the UI's language. */
function MarketClock({ text, open }: { text: { line: string; open: string; note: string }; open: boolean }) {
  return (
    <div className="market-clock" data-testid="market-clock" data-open={open}>
      <p>
        <strong>{text.line}</strong> · {text.open}
      </p>
      <p className="muted small">{text.note}</p>
    </div>
  );
}

/** A tool card. `durationOf` gives a call's live-measured (or server-reported) duration, when known. */
export function ToolCard({
  block,
  durationOf,
  onReview,
  streaming = false,
}: {
  block: ToolBlock;
  durationOf: (block: ToolBlock) => number | null;
  onReview?: ((block: ToolBlock) => void) | undefined;
  /** The message is being followed live (sub-agent text streams). */
  streaming?: boolean;
}) {
  const { t, lang } = useT();
  const agentName = useAgentName();
  const done = block.phase === "done";
  const spill = done ? spillOf(block.output) : null;
  const analysis = done && !spill ? analysisOf(block.output) : null;
  const clock = done && block.toolName === "get_time" ? asClockReading(block.output) : null;
  const [open, setOpen] = useState(true);
  const busy = block.phase === "input" || block.phase === "running";
  const bodyId = `tool-body-${block.toolCallId}`;
  const durationMs = durationOf(block);
  const nested = block.nested.map((child) => (
    <ToolCard key={child.key} block={child} durationOf={durationOf} onReview={onReview} streaming={streaming} />
  ));
  return (
    <section
      className={`tool-card tool-card--${block.phase}${block.subagent ? " tool-card--subagent" : ""}`}
      data-testid="tool-card"
      data-tool={block.toolName}
      data-phase={block.phase}
      data-subagent={block.subagent ?? undefined}
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
        {block.subagent && (
          <span className="agent-chip" data-testid="agent-chip">
            {agentName(block.subagent)}
          </span>
        )}
        <span className="tool-status" data-testid="tool-status">
          {busy && <Spinner />}
          {t(PHASE_LABEL[block.phase])}
          {durationMs !== null && block.phase !== "approval" && <span className="muted"> · {seconds(durationMs)}</span>}
        </span>
        {block.phase === "approval" && onReview && (
          <button type="button" className="primary small" onClick={() => onReview(block)}>
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
              {toolErrorText(block.errorText ?? "", lang, block.errorMessages ?? undefined)}
            </p>
          )}
          {block.run ? (
            <SubagentProgress run={block.run} streaming={streaming}>
              {nested}
            </SubagentProgress>
          ) : (
            nested.length > 0 && <div className="subagent-calls">{nested}</div>
          )}
          {analysis && <AnalysisSummary analysis={analysis} output={block.output} />}
          {clock && <MarketClock text={clockText(clock, lang)} open={clock.isTradingHours} />}
          {spill && <SpilledResult spill={spill} />}
          {block.input !== undefined && block.phase !== "input" && (
            <JsonView label={t("toolInput")} value={block.input} />
          )}
          {done && !spill && <JsonView label={t("toolOutput")} value={block.output} />}
        </div>
      )}
    </section>
  );
}
