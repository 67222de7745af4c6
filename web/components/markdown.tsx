/**
 * Markdown text of a message. The renderer loads on first use; until then the text shows as plain
 * pre-wrapped paragraphs in the same box, so nothing jumps when it arrives.
 */
import { lazy, Suspense } from "react";

const MarkdownRenderer = lazy(() => import("./markdown-renderer").then((m) => ({ default: m.MarkdownRenderer })));

/** Markdown that may still be streaming. */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <div className="md-box" data-testid="markdown">
      <Suspense fallback={<div className="md md--plain">{text}</div>}>
        <MarkdownRenderer text={text} streaming={streaming} />
      </Suspense>
    </div>
  );
}
