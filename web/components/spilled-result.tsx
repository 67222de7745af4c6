/**
 * A tool result too large for the model's context (over 50,000 characters): its preview and structure
 * index, and a button that fetches the whole result from the session's spill store.
 */
import { analysisOf } from "../lib/analysis-of";
import { onSharePage } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import type { SpillRef } from "../lib/spill";
import { useSpill } from "../hooks/use-spill";
import { AnalysisSummary } from "./analysis-summary";
import { JsonView } from "./json-view";
import { Spinner } from "./spinner";

/** The spilled result view. */
export function SpilledResult({ spill }: { spill: SpillRef }) {
  const { t } = useT();
  const { state, load } = useSpill(spill.ref);
  const arrays = Object.entries(spill.arrays);
  const analysis = state.status === "done" ? analysisOf(state.value) : null;
  return (
    <div className="spill" data-testid="spilled-result">
      <p className="spill-title">{t("spillTitle", { chars: spill.chars.toLocaleString("en") })}</p>
      {spill.keys.length > 0 && (
        <p className="small">
          <span className="muted">{t("spillKeys")}:</span> <code>{spill.keys.join(", ")}</code>
        </p>
      )}
      {arrays.length > 0 && (
        <p className="small" data-testid="spill-index">
          <span className="muted">{t("spillArrays")}:</span>{" "}
          {arrays.map(([k, n]) => (
            <code key={k} className="spill-array">
              {k}[{n.toLocaleString("en")}]
            </code>
          ))}
        </p>
      )}
      {state.status !== "done" && (
        <details className="json-view" open>
          <summary>{t("spillPreview")}</summary>
          <pre data-testid="spill-preview">{spill.preview}…</pre>
        </details>
      )}
      {!onSharePage() && state.status !== "done" && (
        <button
          type="button"
          className="small"
          data-testid="spill-load"
          disabled={state.status === "loading"}
          onClick={load}
        >
          {state.status === "loading" ? (
            <>
              <Spinner /> {t("spillLoading")}
            </>
          ) : (
            t("spillLoad")
          )}
        </button>
      )}
      {state.status === "error" && (
        <p className="inline-error" role="alert">
          {t("spillFailed", { error: state.error })}
        </p>
      )}
      {state.status === "done" && (
        <div data-testid="spill-full">
          {analysis && <AnalysisSummary analysis={analysis} output={state.value} />}
          <JsonView label={t("spillFull")} value={state.value} open />
        </div>
      )}
    </div>
  );
}
