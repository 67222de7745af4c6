/** The edge's log sink: JSON lines to the Workers console (collected by Workers Logs / observability). */
import type { LogSink } from "./lib/log";

/** Writes a log line at its level. */
export const consoleSink: LogSink = (level, line) => {
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
};
