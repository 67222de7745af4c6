/** A turn running in this host instance (memory only: what is durable lives in the session log). */
import type { ApprovalDecision } from "./tool-executor";

/** The in-memory side of a running turn. */
export interface LiveTurn {
  id: string;
  controller: AbortController;
  waiters: Map<string, (decision: ApprovalDecision) => void>;
  /** Whether the turn is working (true) or waiting for a person (false). */
  awake: boolean;
  /** Releases the keep-alive heartbeat (held while the turn works, not while it waits for a person). */
  release: (() => void) | undefined;
  /** Trace lines of this run (redacted JSON), after what an earlier run of the same turn wrote. */
  trace: string[];
  tracePrefix: Promise<string>;
}
