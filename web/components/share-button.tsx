/**
 * "Share" on a chat page: creates a read-only link to the session (optionally expiring), shows it to
 * copy, and revokes it again. The owner's other links are listed on the settings page.
 */
import type { CreatedShare } from "@contracts/share";
import { useEffect, useRef, useState } from "react";
import { accountApi, errorMessage } from "../lib/api-client";
import { useIdT } from "../lib/identity-strings";

const EXPIRY_HOURS = [0, 24, 24 * 7, 24 * 30];

/** The share control of one session. */
export function ShareButton({ sessionId }: { sessionId: string }) {
  const { t } = useIdT();
  const [open, setOpen] = useState(false);
  const [hours, setHours] = useState(0);
  const [audit, setAudit] = useState(false);
  const [link, setLink] = useState<CreatedShare | null>(null);
  const [revoked, setRevoked] = useState(false);
  const [copied, setCopied] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = ref.current;
    if (open && d && !d.open) d.showModal();
  }, [open]);

  const close = () => {
    ref.current?.close();
    setOpen(false);
    setLink(null);
    setRevoked(false);
    setCopied(false);
    setProblem(null);
  };

  const create = async () => {
    setProblem(null);
    try {
      setLink(await accountApi.createShare(sessionId, hours || undefined, audit));
      setRevoked(false);
    } catch (e) {
      setProblem(t("failed", { error: errorMessage(e) }));
    }
  };

  const revoke = async () => {
    if (!link) return;
    try {
      await accountApi.revokeShare(link.id);
      setRevoked(true);
    } catch (e) {
      setProblem(t("failed", { error: errorMessage(e) }));
    }
  };

  const label = (h: number) =>
    h === 0 ? t("shareNever") : h % 24 === 0 ? t("shareDays", { n: h / 24 }) : t("shareHours", { n: h });

  return (
    <>
      <button type="button" className="small" data-testid="share-button" onClick={() => setOpen(true)}>
        {t("share")}
      </button>
      {open && (
        <dialog ref={ref} className="dialog" aria-labelledby="share-title" onCancel={close}>
          <h2 id="share-title">{t("shareTitle")}</h2>
          <div className="share-panel">
            <p className="muted small">{t("shareHint")}</p>
            {!link || revoked ? (
              <label className="small">
                {t("shareExpiry")}{" "}
                <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
                  {EXPIRY_HOURS.map((h) => (
                    <option key={h} value={h}>
                      {label(h)}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {!link || revoked ? (
              <label className="small">
                <input
                  type="checkbox"
                  checked={audit}
                  data-testid="share-audit"
                  onChange={(e) => setAudit(e.target.checked)}
                />{" "}
                {t("shareAudit")}
              </label>
            ) : (
              <input readOnly value={link.url} data-testid="share-url" onFocus={(e) => e.currentTarget.select()} />
            )}
            {revoked && <p data-testid="share-revoked">{t("shareRevoked")}</p>}
            {problem && (
              <p className="inline-error" role="alert">
                {problem}
              </p>
            )}
          </div>
          <div className="dialog-actions">
            <button type="button" onClick={close}>
              {t("close")}
            </button>
            {link && !revoked ? (
              <>
                <button
                  type="button"
                  onClick={() =>
                    void navigator.clipboard?.writeText(link.url).then(
                      () => setCopied(true),
                      () => setCopied(false),
                    )
                  }
                >
                  {copied ? t("shareCopied") : t("shareCopy")}
                </button>
                <button type="button" className="danger" data-testid="share-revoke" onClick={() => void revoke()}>
                  {t("shareRevoke")}
                </button>
              </>
            ) : (
              <button type="button" className="primary" data-testid="share-create" onClick={() => void create()}>
                {t("shareCreate")}
              </button>
            )}
          </div>
        </dialog>
      )}
    </>
  );
}
