/**
 * The registry of background message kinds and their handlers. Background tools (screening,
 * backtests, reports) register here as they arrive; until then every kind is unknown and goes to
 * the dead-letter queue.
 */
import type { QueueHandler } from "./queue-consumer";

/** Handlers by message kind. */
export const backgroundHandlers: Readonly<Record<string, QueueHandler>> = {};
