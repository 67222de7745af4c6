/** How a turn ended (or that its stream is reconnecting): stopped, failed with its diagnosis and a retry. */
import { useT } from "../lib/lang-store";
import { Spinner } from "./spinner";

/** The footer under an assistant message. */
export function TurnFooter({
  status,
  errorText,
  reconnecting,
  onRetry,
}: {
  status: string | null;
  errorText: string | null;
  reconnecting: boolean;
  onRetry?: (() => void) | undefined;
}) {
  const { t } = useT();
  if (reconnecting)
    return (
      <p className="turn-footer muted" role="status" data-testid="reconnecting">
        <Spinner /> {t("reconnecting")}
      </p>
    );
  if (status === "cancelled")
    return (
      <p className="turn-footer muted" data-testid="turn-cancelled">
        ■ {t("turnCancelled")}
      </p>
    );
  if (status === "rounds_exceeded") return <p className="turn-footer muted">{t("roundsExceeded")}</p>;
  if (status !== "error") return null;
  return (
    <div className="turn-error" role="alert" data-testid="turn-error">
      <p>
        <strong>{t("turnError")}:</strong> {errorText ?? t("turnErrorGeneric")}
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry} data-testid="retry">
          ↻ {t("retry")}
        </button>
      )}
    </div>
  );
}
