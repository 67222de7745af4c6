/** Says, dismissibly, when the offline rule model or offline market data answers, and how to change it. */
import type { Health } from "@contracts/api";
import { useState } from "react";
import { useT } from "../lib/lang-store";

const KEY = "wyckoff-edge.offline-banner-dismissed";
const SETTINGS_EXAMPLE = [
  "LLM_BASE_URL=https://api.deepseek.com/v1 LLM_MODEL=deepseek-chat LLM_API_KEY=… npm start",
  "MARKET_DATA=live npm start   # Eastmoney / Tencent / Yahoo, bundled data as last resort",
].join("\n");

function dismissedBefore(): boolean {
  try {
    return sessionStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

/** The banner (nothing when online or dismissed in this tab). */
export function OfflineBanner({ health }: { health: Health | null }) {
  const { t } = useT();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (!health || dismissed || (!health.model.offline && health.marketData !== "offline")) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      sessionStorage.setItem(KEY, "1");
    } catch {
      // not remembered
    }
  };
  return (
    <div className="offline-banner" role="note" data-testid="offline-banner">
      <div>
        {health.model.offline && <strong>{t("offlineBanner")} </strong>}
        {health.marketData === "offline" && <span>{t("offlineDataBanner")}</span>}
        <details>
          <summary>{t("offlineHowTo")}</summary>
          <pre className="settings-example">{SETTINGS_EXAMPLE}</pre>
        </details>
      </div>
      <button type="button" className="icon-button" onClick={dismiss} aria-label={t("dismiss")}>
        ×
      </button>
    </div>
  );
}
