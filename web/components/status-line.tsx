/** The session's token usage (stored totals plus the running turn) and the last turn's model and timing. */
import type { UsageTotals } from "@contracts/api";
import { useT } from "../lib/lang-store";
import type { TurnUsage } from "../lib/turn-state";

function k(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString();
}

/** A one-line usage summary. */
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
  return (
    <p className="status-line" data-testid="status-line" title={t("costUnknown")}>
      <span>{t("usage")}:</span> {k(sum("inputTokens"))} {t("tokensIn")} · {k(sum("outputTokens"))} {t("tokensOut")}
      {sum("reasoningTokens") > 0 && ` · ${k(sum("reasoningTokens"))} ${t("tokensReasoning")}`}
      {sum("cachedInputTokens") > 0 && ` · ${k(sum("cachedInputTokens"))} ${t("tokensCached")}`}
      {model && <span className="muted"> · {model}</span>}
    </p>
  );
}
