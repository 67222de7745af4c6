/** A message the person sent (plain text, line breaks kept). */
import { useT } from "../lib/lang-store";
import { userText, type PartLike } from "../lib/message-view";

/** A user message bubble. */
export function UserMessage({ parts }: { parts: readonly PartLike[] }) {
  const { t } = useT();
  return (
    <article className="message message--user" data-testid="user-message" aria-label={t("you")}>
      <p>{userText(parts)}</p>
    </article>
  );
}
