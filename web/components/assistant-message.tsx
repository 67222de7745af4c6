/**
 * An assistant message: a guard warning banner on top, then its text (markdown), reasoning, tool
 * cards (with sub-agents' calls nested under their delegate call) and inline notes, in stream order.
 */
import { useMemo } from "react";
import { useNow } from "../hooks/use-now";
import { useT } from "../lib/lang-store";
import { allTools, errorOf, statusOf, toBlocks, type ToolBlock } from "../lib/message-view";
import { toolDuration, type TurnState } from "../lib/turn-state";
import type { ViewMessage } from "../hooks/use-session";
import { GuardBanner } from "./guard-banner";
import { InlineNote } from "./inline-note";
import { Markdown } from "./markdown";
import { ReasoningBlock } from "./reasoning-block";
import { Spinner } from "./spinner";
import { SubagentProgress } from "./subagent-progress";
import { ToolCard } from "./tool-card";
import { TurnFooter } from "./turn-footer";
import { MessageTools } from "./message-tools";

/** One assistant message, stored or live (`turn` set while it is followed). */
export function AssistantMessage({
  message,
  turn,
  onReview,
  onRetry,
}: {
  message: ViewMessage | null;
  turn: { state: TurnState; reconnecting: boolean } | null;
  onReview?: ((block: ToolBlock) => void) | undefined;
  onRetry?: (() => void) | undefined;
}) {
  const { t } = useT();
  const blocks = useMemo(() => (message ? toBlocks(message.parts) : []), [message]);
  const running = turn !== null && !turn.state.ended;
  const anyToolBusy = allTools(blocks).some((b) => b.phase === "running" || b.phase === "input");
  const now = useNow(running && anyToolBusy);
  const durationOf = (b: ToolBlock) => b.ms ?? (turn ? toolDuration(turn.state, b.toolCallId, now) : null);
  const status = turn ? (turn.state.ended ? turn.state.status : null) : statusOf(message?.metadata);
  const errorText = turn ? turn.state.errorText : errorOf(message?.metadata);
  const showThinking =
    running && turn.state.status === "running" && (blocks.length === 0 || blocks.at(-1)?.kind === "tool");
  return (
    <article className="message message--assistant" data-testid="assistant-message" aria-label={t("assistant")}>
      {blocks.map((b) => {
        switch (b.kind) {
          case "text":
            return <Markdown key={b.key} text={b.text} streaming={b.streaming && running} />;
          case "reasoning":
            return <ReasoningBlock key={b.key} text={b.text} streaming={b.streaming && running} />;
          case "note":
            return <InlineNote key={b.key} note={b} />;
          case "banner":
            return <GuardBanner key={b.key} banner={b} />;
          case "subagent":
            return <SubagentProgress key={b.key} run={b} streaming={running} />;
          case "tool":
            return <ToolCard key={b.key} block={b} durationOf={durationOf} onReview={onReview} streaming={running} />;
        }
        return null;
      })}
      {showThinking && (
        <p className="thinking muted" role="status">
          <Spinner /> {t("reasoningLive")}
        </p>
      )}
      <TurnFooter status={status} errorText={errorText} reconnecting={turn?.reconnecting ?? false} onRetry={onRetry} />
      {!turn && message && <MessageTools parts={message.parts} title={t("assistant")} />}
    </article>
  );
}
