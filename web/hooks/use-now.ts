/** A clock that ticks while `active` (for live durations); it keeps its last reading otherwise. */
import { useEffect, useState } from "react";

/** `performance.now()`, refreshed every `ms` while active. */
export function useNow(active: boolean, ms = 200): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(performance.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
}
