/** The model's reasoning, collapsed by default (open while it streams, so progress is visible). */
import { useT } from "../lib/lang-store";

/** A collapsible reasoning block. */
export function ReasoningBlock({ text, streaming }: { text: string; streaming: boolean }) {
  const { t } = useT();
  return (
    <details className="reasoning" data-testid="reasoning">
      <summary>{streaming ? t("reasoningLive") : t("reasoning")}</summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
}
