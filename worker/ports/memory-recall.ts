/** Port: long-term memories relevant to a question, recalled before a turn. */

/** What recall returns: the block to inject and the memories it used. */
export interface RecalledMemories {
  /** Formatted memories (without the surrounding tags), within the token budget. */
  block: string;
  ids: string[];
}

/** Recalls memories of one user for a message. */
export interface MemoryRecall {
  recall(input: { userId: string; sessionId: string; text: string }): Promise<RecalledMemories | null>;
}
