/**
 * Markdown text of a message. The renderer loads on first use; until then the text shows as plain
 * pre-wrapped paragraphs in the same box (escapes and entities already decoded, so quoted `<b>` reads
 * as `<b>`, not `&lt;b&gt;`), so nothing jumps when it arrives.
 */
import { lazy, Suspense } from "react";
import { plainMarkdown } from "../lib/markdown-text";

const MarkdownRenderer = lazy(() => import("./markdown-renderer").then((m) => ({ default: m.MarkdownRenderer })));

/** Markdown that may still be streaming. */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <div className="md-box" data-testid="markdown">
      <Suspense fallback={<div className="md md--plain">{plainMarkdown(text)}</div>}>
        <MarkdownRenderer text={text} streaming={streaming} />
      </Suspense>
    </div>
  );
}
