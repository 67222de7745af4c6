/**
 * Follows a session's turn state with the server's long-poll (`GET …/turn?after=&wait=`), so a page
 * learns of turns it did not start: a finished background task's notification turn, a message sent
 * from another tab or by a webhook. `onChange` runs for every key after the first one seen.
 */
import type { TurnWatch } from "@contracts/api";

const WAIT_S = 20;
const RETRY_MS = 3000;

/** Starts watching; the returned function stops it. */
export function watchTurns(
  poll: (after: string | null, wait: number, signal: AbortSignal) => Promise<TurnWatch>,
  onChange: (watch: TurnWatch) => void | Promise<void>,
): () => void {
  const stop = new AbortController();
  void (async () => {
    let key: string | null = null;
    while (!stop.signal.aborted) {
      try {
        const watch = await poll(key, key === null ? 0 : WAIT_S, stop.signal);
        if (stop.signal.aborted) return;
        const first = key === null;
        if (watch.key === key) continue;
        key = watch.key;
        if (!first) await onChange(watch);
      } catch {
        if (stop.signal.aborted) return;
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  })();
  return () => stop.abort();
}
