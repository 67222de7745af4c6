/** Port: saving stable preferences from messages about to be summarised away. */

/** A message reduced to who said it and its text (tool results as their JSON text). */
export interface FlushMessage {
  role: "system" | "user" | "assistant" | "tool";
  text: string;
}

/** Called before compaction replaces `head` with a summary. */
export interface MemoryFlush {
  flushBeforeCompaction(input: { sessionId: string; userId: string; head: readonly FlushMessage[] }): Promise<void>;
}
