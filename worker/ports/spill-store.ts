/** Port: where oversized tool results go (R2 in production), keyed by session/turn/call. */

/** Stores and reads spilled results. */
export interface SpillStore {
  put(key: string, text: string): Promise<void>;
  /** The stored text, or null when there is none. */
  get(key: string): Promise<string | null>;
}
