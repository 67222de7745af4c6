/**
 * Structured logging: one JSON line per event (`log.info("turn_end", { sessionId, ms })`).
 * The sink is injected (the edge passes console methods), so this stays pure.
 */

/** Severity of a log line. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Fields attached to a log line; must be JSON-safe. */
export type LogFields = Record<string, unknown>;

/** A logger bound to fixed context fields. */
export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** Where finished lines go, by level. */
export type LogSink = (level: LogLevel, line: string) => void;

function errorFields(value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

/** Creates a logger writing JSON lines to `sink`, with `base` fields on every line. */
export function createLogger(sink: LogSink, base: LogFields = {}): Logger {
  const write = (level: LogLevel, event: string, fields: LogFields = {}): void => {
    const merged: LogFields = { level, event, ...base };
    for (const [k, v] of Object.entries(fields)) merged[k] = errorFields(v);
    sink(level, JSON.stringify(merged));
  };
  return {
    debug: (e, f) => write("debug", e, f),
    info: (e, f) => write("info", e, f),
    warn: (e, f) => write("warn", e, f),
    error: (e, f) => write("error", e, f),
    child: (fields) => createLogger(sink, { ...base, ...fields }),
  };
}
