/** Copy and export buttons under a finished message, and the transcript export of a session. */
import { useState } from "react";
import { useDeskT } from "../lib/desk-strings";
import type { PartLike } from "../lib/message-view";
import { fileNameOf, messageMarkdown } from "../lib/transcript-markdown";

/** Downloads text as a Markdown file. */
export function downloadMarkdown(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/markdown;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // no clipboard permission (or not a secure context): a hidden textarea and execCommand
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** Copy / export of one message. */
export function MessageTools({ parts, title }: { parts: readonly PartLike[]; title: string }) {
  const { t } = useDeskT();
  const [copied, setCopied] = useState(false);
  const text = messageMarkdown({ role: "assistant", parts });
  if (!text) return null;
  return (
    <div className="message-tools">
      <button
        type="button"
        className="small"
        data-testid="copy-message"
        onClick={() => void copyText(text).then((ok) => ok && setCopied(true))}
      >
        {copied ? `✓ ${t("copied")}` : t("copy")}
      </button>
      <button
        type="button"
        className="small"
        data-testid="export-message"
        onClick={() => downloadMarkdown(fileNameOf(title), `${text}\n`)}
      >
        {t("exportMarkdown")}
      </button>
    </div>
  );
}
