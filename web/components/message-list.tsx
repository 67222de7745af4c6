/**
 * The conversation, virtualised (@tanstack/react-virtual, measured rows) so a 500-message session
 * scrolls smoothly. It stays pinned to the bottom while the newest message grows, unless the reader
 * has scrolled up; rows keep their measured height, so streaming never shifts what is above.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useDeskT } from "../lib/desk-strings";
import type { LiveTurn, ViewMessage } from "../hooks/use-session";
import { isNotification, type ToolBlock } from "../lib/message-view";
import { AssistantMessage } from "./assistant-message";
import { SystemNotice } from "./system-notice";
import { UserMessage } from "./user-message";

const PIN_SLACK_PX = 80;

/** The message list. */
export function MessageList({
  history,
  live,
  onReview,
  onRetry,
}: {
  history: readonly ViewMessage[];
  live: LiveTurn | null;
  onReview: (block: ToolBlock) => void;
  onRetry: () => void;
}) {
  const { t } = useDeskT();
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [away, setAway] = useState(false);
  const count = history.length + (live ? 1 : 0);
  const last = history.at(-1);
  const lastId = last?.id;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (history[i]?.role === "user" ? 64 : 220),
    overscan: 6,
  });
  const total = virtualizer.getTotalSize();

  const toBottom = () => {
    const el = scroller.current;
    pinned.current = true;
    setAway(false);
    if (count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
    if (el) el.scrollTop = el.scrollHeight;
  };

  // The person's own new message brings the view back to the bottom, wherever they had scrolled.
  useLayoutEffect(() => {
    if (last?.role === "user" && !isNotification(last.metadata)) toBottom();
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only when a new last message arrives
  }, [lastId]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [total, count, live?.message]);

  useEffect(() => {
    if (count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
    // only when the list first fills
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- first fill only
  }, [count > 0]);

  const lastIndex = history.length - 1;
  return (
    <div className="message-frame">
      <div
        ref={scroller}
        className="message-scroller"
        data-testid="message-list"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-busy={live !== null}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < PIN_SLACK_PX;
          if (away === pinned.current) setAway(!pinned.current);
        }}
      >
        <div className="message-canvas" style={{ height: total }}>
          {virtualizer.getVirtualItems().map((item) => {
            const m = item.index < history.length ? history[item.index] : undefined;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="message-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {m ? (
                  m.role === "user" ? (
                    isNotification(m.metadata) ? (
                      <SystemNotice
                        parts={m.parts}
                        taskId={typeof m.metadata?.taskId === "string" ? m.metadata.taskId : undefined}
                      />
                    ) : (
                      <UserMessage parts={m.parts} />
                    )
                  ) : (
                    <AssistantMessage
                      message={m}
                      turn={null}
                      onRetry={item.index === lastIndex && !live ? onRetry : undefined}
                    />
                  )
                ) : live ? (
                  <AssistantMessage
                    message={live.message}
                    turn={{ state: live.state, reconnecting: live.connection === "reconnecting" }}
                    onReview={onReview}
                  />
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      {away && count > 0 && (
        <button type="button" className="jump-latest" data-testid="jump-latest" onClick={toBottom}>
          ↓ {t("jumpToLatest")}
        </button>
      )}
    </div>
  );
}
