/** A sub-agent's display name in the UI language ("Analysis sub-agent"); its id when unknown. */
import { useCallback } from "react";
import { useT } from "../lib/lang-store";
import type { StringKey } from "../lib/strings";

const AGENT_LABEL: Record<string, StringKey> = {
  research: "agent_research",
  analysis: "agent_analysis",
  trading: "agent_trading",
};

/** The namer. */
export function useAgentName(): (agent: string) => string {
  const { t } = useT();
  return useCallback(
    (agent: string) => {
      const key = AGENT_LABEL[agent];
      return t("subagentLabel", { agent: key ? t(key) : agent });
    },
    [t],
  );
}
