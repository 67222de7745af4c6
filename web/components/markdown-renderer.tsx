/**
 * Streaming-safe markdown (streamdown: unterminated bold, lists and tables render while they grow).
 * Loaded lazily by `markdown.tsx`, so the parser stays out of the first-load bundle.
 */
import { Streamdown } from "streamdown";

/** Renders markdown; `streaming` keeps incomplete syntax from flashing as raw characters. */
export function MarkdownRenderer({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <Streamdown
      className="md"
      mode={streaming ? "streaming" : "static"}
      isAnimating={streaming}
      parseIncompleteMarkdown
      controls={false}
      linkSafety={{ enabled: false }}
    >
      {text}
    </Streamdown>
  );
}
