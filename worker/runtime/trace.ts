/**
 * The per-turn trace: what the model thought, which tools ran with which
 * arguments, results, durations and statuses, compactions, the final answer with tokens and time,
 * and errors. The session writes it as JSONL to R2, redacted.
 */
import type { ToolOutcome } from "./tool-executor";

/** One trace line. */
export type TraceEvent =
  | { type: "init"; userText: string; sessionId: string; turnId: string; model: string; resumed: boolean }
  | { type: "thinking"; round: number; text: string }
  | {
      type: "tool_result";
      round: number;
      tool: string;
      args: unknown;
      result: unknown;
      ms: number;
      status: "ok" | "error" | "denied";
    }
  | { type: "compaction"; round: number; detail: Record<string, unknown> }
  | { type: "memory"; ids: string[] }
  | { type: "final"; status: string; text: string; rounds: number; usage: Record<string, number>; ms: number }
  | { type: "error"; message: string };

/** Longest result text kept per tool in the trace (the full result is in the event log or a spill). */
export const TRACE_RESULT_CHARS = 4_000;

/** A result cut for the trace. */
export function traceResult(value: unknown): unknown {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= TRACE_RESULT_CHARS
    ? value
    : { cut: true, chars: text.length, head: text.slice(0, TRACE_RESULT_CHARS) };
}

/** The trace line of one tool outcome. */
export function traceOutcome(o: ToolOutcome, round: number): TraceEvent {
  return {
    type: "tool_result",
    round,
    tool: o.toolName,
    args: o.input ?? null,
    result: traceResult(
      o.kind === "ok"
        ? o.output
        : o.kind === "error"
          ? { error: { code: o.code, message: o.message } }
          : { denied: o.reason },
    ),
    ms: o.ms ?? 0,
    status: o.kind === "ok" ? "ok" : o.kind === "error" ? "error" : "denied",
  };
}
