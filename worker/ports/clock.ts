/** Port: the current time, injected so core and application code stay deterministic under test. */

/** Milliseconds since the epoch. */
export type Clock = () => number;
