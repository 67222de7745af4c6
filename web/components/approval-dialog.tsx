/**
 * The approval dialog for a pending tool call: allow once, always (this session), edit the input
 * (validated against the tool's schema before sending), or deny with an optional reason. It is
 * driven by the message state, so after a reload the pending approval opens it again.
 */
import type { ApprovalBody } from "@contracts/api";
import { formatIssues, issuesInChinese } from "@contracts/errors";
import { useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { errorMessage } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import type { ToolBlock } from "../lib/message-view";
import { toolSpec, toolTitle } from "../lib/tool-catalog";
import { draftValue, initialDraft, type Draft } from "../lib/schema-fields";
import { useDeskT } from "../lib/desk-strings";
import { ApprovalChange, hasChangeView } from "./approval-change";
import { SchemaForm } from "./schema-form";

/** The dialog for one pending approval. */
export function ApprovalDialog({
  block,
  sessionTitle,
  onDecide,
  onClose,
}: {
  block: ToolBlock;
  sessionTitle?: string;
  onDecide: (body: ApprovalBody) => Promise<void>;
  onClose: () => void;
}) {
  const { t, lang } = useT();
  const desk = useDeskT();
  const ref = useRef<HTMLDialogElement>(null);
  const spec = toolSpec(block.toolName);
  const schema = useMemo(() => (spec ? z.toJSONSchema(spec.input, { io: "input" }) : null), [spec]);
  const [mode, setMode] = useState<"view" | "edit" | "deny">("view");
  const [draft, setDraft] = useState<Draft>(() => initialDraft(schema, block.input));
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const submit = async (body: ApprovalBody) => {
    setSending(true);
    setProblem(null);
    try {
      await onDecide(body);
    } catch (e) {
      setProblem(t("decisionFailed", { error: errorMessage(e) }));
      setSending(false);
    }
  };

  const sendEdit = () => {
    let value: unknown;
    try {
      value = draftValue(draft);
    } catch (e) {
      setProblem(`${t("invalidInput")} ${errorMessage(e)}`);
      return;
    }
    if (spec) {
      const parsed = spec.input.safeParse(value);
      if (!parsed.success) {
        const issues =
          lang === "zh"
            ? formatIssues(issuesInChinese(spec.input, value, parsed.error.issues), { lang: "zh" })
            : formatIssues(parsed.error.issues);
        setProblem(`${t("invalidInput")} ${issues}`);
        return;
      }
    }
    void submit({ decision: "edit", input: JSON.parse(JSON.stringify(value)) });
  };

  const title = toolTitle(block.toolName, lang);
  return (
    <dialog
      ref={ref}
      className="dialog approval-dialog"
      aria-labelledby="approval-title"
      data-testid="approval-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="approval-title">{t("approvalTitle")}</h2>
      <p>{t("approvalBody", { tool: title })}</p>
      {mode === "edit" ? (
        <SchemaForm schema={schema} draft={draft} onChange={setDraft} />
      ) : hasChangeView(block.toolName) ? (
        <>
          <ApprovalChange
            toolName={block.toolName}
            input={block.input}
            {...(sessionTitle !== undefined ? { sessionTitle } : {})}
          />
          <details className="approval-raw">
            <summary>{desk.t("rawInput")}</summary>
            <pre className="approval-input">{JSON.stringify(block.input, null, 2)}</pre>
          </details>
        </>
      ) : (
        <pre className="approval-input">{JSON.stringify(block.input, null, 2)}</pre>
      )}
      {mode === "deny" && (
        <label className="field">
          <span>{t("denyReason")}</span>
          <textarea rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
        </label>
      )}
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      <div className="dialog-actions">
        {mode === "view" && (
          <>
            <button
              type="button"
              className="primary"
              disabled={sending}
              onClick={() => void submit({ decision: "allow" })}
              autoFocus
            >
              {t("allowOnce")}
            </button>
            <button type="button" disabled={sending} onClick={() => void submit({ decision: "always" })}>
              {t("allowAlways")}
            </button>
            <button type="button" disabled={sending} onClick={() => setMode("edit")}>
              {t("edit")}
            </button>
            <button type="button" className="danger" disabled={sending} onClick={() => setMode("deny")}>
              {t("deny")}
            </button>
          </>
        )}
        {mode === "edit" && (
          <>
            <button type="button" onClick={() => setMode("view")}>
              {t("cancel")}
            </button>
            <button type="button" className="primary" disabled={sending} onClick={sendEdit}>
              {t("editSend")}
            </button>
          </>
        )}
        {mode === "deny" && (
          <>
            <button type="button" onClick={() => setMode("view")}>
              {t("cancel")}
            </button>
            <button
              type="button"
              className="danger"
              disabled={sending}
              onClick={() =>
                void submit(reason.trim() ? { decision: "deny", reason: reason.trim() } : { decision: "deny" })
              }
            >
              {t("deny")}
            </button>
          </>
        )}
      </div>
    </dialog>
  );
}
