/** Port: what tools may change about the session they run in (implemented by the session DO). */

/** Session-level actions available to tools. */
export interface SessionControl {
  /** Renames the session (the reading room's list shows the new title). */
  rename(title: string): Promise<{ title: string }>;
}
