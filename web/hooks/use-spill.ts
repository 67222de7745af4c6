/** Fetches a spilled tool result on demand (the person presses "load full result"). */
import { useCallback, useEffect, useRef, useState } from "react";
import { api, errorMessage } from "../lib/api-client";

/** Where the load stands. */
export type SpillLoad =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "done"; value: unknown }
  | { status: "error"; error: string };

/** The full result behind a spill reference, loaded when `load()` is called. */
export function useSpill(ref: string): { state: SpillLoad; load: () => void } {
  const [state, setState] = useState<SpillLoad>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const load = useCallback(() => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setState({ status: "loading" });
    api.spill(ref, c.signal).then(
      (value) => setState({ status: "done", value }),
      (e: unknown) => {
        if (!c.signal.aborted) setState({ status: "error", error: errorMessage(e) });
      },
    );
  }, [ref]);
  return { state, load };
}
