/**
 * The turn's time budget (`LLM_TURN_TIMEOUT_MS`, default 600 s) counts working time only: it stops while a person decides
 * on an approval — a pending timer would also keep the Durable Object from idling while it waits.
 */
import type { ApprovalGate } from "./tool-executor";

class TurnTimeout extends Error {
  constructor(ms: number) {
    super(`turn exceeded ${ms} ms`);
    this.name = "TurnTimeout";
  }
}

/** A running budget. */
export interface TurnBudget {
  /** Aborts when the budget is spent. */
  signal: AbortSignal;
  /** The gate, with the budget paused while a person decides. */
  pausing(gate: ApprovalGate): ApprovalGate;
  dispose(): void;
}

/** Starts a budget of `ms` working milliseconds. */
export function startTurnBudget(ms: number, now: () => number): TurnBudget {
  const controller = new AbortController();
  let left = ms;
  let from = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    from = now();
    timer = setTimeout(() => controller.abort(new TurnTimeout(ms)), Math.max(0, left));
  };
  const stop = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    left -= now() - from;
  };
  arm();
  return {
    signal: controller.signal,
    pausing: (gate) => ({
      isAlwaysAllowed: (name) => gate.isAlwaysAllowed(name),
      decided: (id) => gate.decided(id),
      request: async (call) => {
        stop();
        try {
          return await gate.request(call);
        } finally {
          arm();
        }
      },
    }),
    dispose: stop,
  };
}
