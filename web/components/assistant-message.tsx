/** An assistant message: its text (markdown), reasoning, tool cards and inline notes, in stream order. */
import { useMemo } from "react";
import { useNow } from "../hooks/use-now";
import { useT } from "../lib/lang-store";
import { errorOf, statusOf, toBlocks, type ToolBlock } from "../lib/message-view";
import { toolDuration, type TurnState } from "../lib/turn-state";
import type { ViewMessage } from "../hooks/use-session";
import { InlineNote } from "./inline-note";
import { Markdown } from "./markdown";
import { ReasoningBlock } from "./reasoning-block";
import { Spinner } from "./spinner";
import { ToolCard } from "./tool-card";
import { TurnFooter } from "./turn-footer";

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
  const anyToolBusy = blocks.some((b) => b.kind === "tool" && (b.phase === "running" || b.phase === "input"));
  const now = useNow(running && anyToolBusy);
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
          case "tool":
            return (
              <ToolCard
                key={b.key}
                block={b}
                durationMs={b.ms ?? (turn ? toolDuration(turn.state, b.toolCallId, now) : null)}
                onReview={onReview ? () => onReview(b) : undefined}
              />
            );
        }
        return null;
      })}
      {showThinking && (
        <p className="thinking muted" role="status">
          <Spinner /> {t("reasoningLive")}
        </p>
      )}
      <TurnFooter status={status} errorText={errorText} reconnecting={turn?.reconnecting ?? false} onRetry={onRetry} />
    </article>
  );
}
