/** The session's token usage and cost (stored totals plus the running turn) and the last turn's model. */
import type { UsageTotals } from "@contracts/api";
import { useT } from "../lib/lang-store";
import type { TurnUsage } from "../lib/turn-state";
import { formatTokens, formatUsd } from "../lib/usage-format";

/** A one-line usage summary; the cost shows only when the model has prices (cost > 0). */
export function StatusLine({
  usage,
  turn,
  model,
}: {
  usage: UsageTotals | null;
  turn: TurnUsage | null;
  model: string | null;
}) {
  const { t } = useT();
  const sum = (key: keyof TurnUsage) => (usage?.[key] ?? 0) + (turn?.[key] ?? 0);
  const cost = sum("costUsd");
  // Nothing counted yet (a new session, a turn stopped before the model answered): no "0 in · 0 out".
  if (sum("inputTokens") + sum("outputTokens") === 0)
    return (
      <p className="status-line" data-testid="status-line">
        {model && <span className="muted">{model}</span>}
      </p>
    );
  return (
    <p className="status-line" data-testid="status-line" title={t("costUnknown")}>
      <span>{t("usage")}:</span> {formatTokens(sum("inputTokens"))} {t("tokensIn")} ·{" "}
      {formatTokens(sum("outputTokens"))} {t("tokensOut")}
      {sum("reasoningTokens") > 0 && ` · ${formatTokens(sum("reasoningTokens"))} ${t("tokensReasoning")}`}
      {sum("cachedInputTokens") > 0 && ` · ${formatTokens(sum("cachedInputTokens"))} ${t("tokensCached")}`}
      {sum("cacheWriteTokens") > 0 && ` · ${formatTokens(sum("cacheWriteTokens"))} ${t("tokensCacheWrite")}`}
      {cost > 0 && (
        <span className="status-cost" data-testid="session-cost">
          {" "}
          · {t("cost")} {formatUsd(cost)}
        </span>
      )}
      {model && <span className="muted"> · {model}</span>}
    </p>
  );
}
