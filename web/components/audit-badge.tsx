/**
 * The audit chain's head beside a session's title (and on a share page): signed or unsigned, the
 * first and last characters of the head hash (the whole hash on hover and to copy), and the export to
 * download — so a reader can compare what they see with an export verified by `npm run audit:verify`.
 * Refreshes whenever the conversation grows (`version`).
 */
import type { AuditHead } from "@contracts/audit";
import { useEffect, useState } from "react";
import { accountApi } from "../lib/api-client";
import { useIdT } from "../lib/identity-strings";

/** The audit head of an owned session (`sessionId`) or of a share (`token`). */
export function AuditBadge({
  target,
  version,
  downloadable = true,
}: {
  target: { sessionId: string } | { token: string };
  version: number;
  downloadable?: boolean;
}) {
  const { t } = useIdT();
  const [head, setHead] = useState<AuditHead | null>(null);
  const [copied, setCopied] = useState(false);
  const key = "sessionId" in target ? target.sessionId : target.token;

  useEffect(() => {
    let live = true;
    accountApi
      .auditHead(target)
      .then((r) => live && setHead(r.audit))
      .catch(() => live && setHead(null));
    return () => {
      live = false;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the target is identified by its key
  }, [key, version]);

  const download = async () => {
    const text = await accountApi.auditExport(target);
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `audit-${key}.jsonl`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };

  if (!head) return null;
  const short = `${head.head.slice(0, 8)}…${head.head.slice(-4)}`;
  const title = `${t("auditTitle", { head: head.head, n: head.count })}${head.signed ? "" : `\n${t("auditUnsignedTitle")}`}`;
  return (
    <div className={`audit-badge ${head.signed ? "signed" : "unsigned"}`} data-testid="audit-badge" title={title}>
      {head.signed ? t("auditSigned") : t("auditUnsigned")}
      <code data-testid="audit-head">{short}</code>
      <button
        type="button"
        className="audit-action"
        onClick={() =>
          void navigator.clipboard?.writeText(head.head).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? "✓" : t("auditCopy")}
      </button>
      {downloadable && (
        <button type="button" className="audit-action" data-testid="audit-download" onClick={() => void download()}>
          {t("auditDownload")}
        </button>
      )}
    </div>
  );
}
