/**
 * The conversation, virtualised (@tanstack/react-virtual, measured rows) so a 500-message session
 * scrolls smoothly. It stays pinned to the bottom while the newest message grows, unless the reader
 * has scrolled up; rows keep their measured height, so streaming never shifts what is above.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { LiveTurn, ViewMessage } from "../hooks/use-session";
import { isNotification, type ToolBlock } from "../lib/message-view";
import { AssistantMessage } from "./assistant-message";
import { SystemNotice } from "./system-notice";
import { useDeskT } from "../lib/desk-strings";
import { UserMessage } from "./user-message";
import { useT } from "../lib/lang-store";

const PIN_SLACK_PX = 80;
/** Scrolled this close to the top, the page before is loaded. */
const LOAD_OLDER_PX = 300;

/** The message list. */
export function MessageList({
  history,
  live,
  onReview,
  onRetry,
  hasOlder = false,
  loadingOlder = false,
  onLoadOlder,
}: {
  history: readonly ViewMessage[];
  live: LiveTurn | null;
  onReview: (block: ToolBlock) => void;
  onRetry: () => void;
  /** More messages exist before the first one held. */
  hasOlder?: boolean;
  loadingOlder?: boolean;
  onLoadOlder?: () => void;
}) {
  const { t } = useT();
  const desk = useDeskT();
  const [away, setAway] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  // Older messages put in front keep what the reader sees in place: shift by the height they add.
  const firstId = useRef<string | undefined>(undefined);
  const heightBefore = useRef(0);
  const pinned = useRef(true);
  const count = history.length + (live ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (history[i]?.role === "user" ? 64 : 220),
    overscan: 6,
  });
  const total = virtualizer.getTotalSize();
  const last = history.at(-1);
  const lastId = last?.id;

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
    if (!el) return;
    const first = history[0]?.id;
    if (firstId.current !== undefined && first !== firstId.current && !pinned.current)
      el.scrollTop += el.scrollHeight - heightBefore.current;
    firstId.current = first;
    heightBefore.current = el.scrollHeight;
    if (pinned.current) el.scrollTop = el.scrollHeight;
  }, [total, count, live?.message, history]);

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
          heightBefore.current = el.scrollHeight;
          if (hasOlder && !loadingOlder && el.scrollTop < LOAD_OLDER_PX) onLoadOlder?.();
        }}
      >
        {hasOlder && (
          <button
            type="button"
            className="load-older"
            data-testid="load-older"
            disabled={loadingOlder}
            onClick={() => onLoadOlder?.()}
          >
            {loadingOlder ? t("loadingOlder") : t("loadOlder")}
          </button>
        )}
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
          ↓ {desk.t("jumpToLatest")}
        </button>
      )}
    </div>
  );
}
