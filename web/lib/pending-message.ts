/** The first message typed on the home page, handed to the chat page of the session just created for it. */
const pending = new Map<string, string>();

/** Remembers the text to send once the session's page opens. */
export function setPendingMessage(sessionId: string, text: string): void {
  pending.set(sessionId, text);
}

/** Takes (and forgets) the text waiting for a session. */
export function takePendingMessage(sessionId: string): string | undefined {
  const text = pending.get(sessionId);
  pending.delete(sessionId);
  return text;
}
