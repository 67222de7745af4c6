/** Shows whether the server is up, which model answers and where market data comes from. */
import type { Health } from "@contracts/api";
import { useT } from "../lib/lang-store";

/** A compact status line for the reading room's header. */
export function HealthBadge({ health, error }: { health: Health | null; error: string | null }) {
  const { t } = useT();
  if (error) {
    return (
      <p className="health health--down" role="status" data-testid="health">
        {t("serverDown", { error })}
      </p>
    );
  }
  if (!health) {
    return (
      <p className="health" role="status" data-testid="health">
        {t("connecting")}
      </p>
    );
  }
  return (
    <p className="health health--up" role="status" data-testid="health" title={`v${health.version}`}>
      <span className="dot" aria-hidden="true" /> {t("model")} <strong>{health.model.id}</strong>
      {health.model.offline ? ` (${t("offline")})` : ""} · {t("marketData")}{" "}
      <strong data-market={health.marketData}>
        {health.marketData === "offline"
          ? t("offline")
          : health.marketData === "live"
            ? t("marketLive")
            : health.marketData}
      </strong>
    </p>
  );
}
