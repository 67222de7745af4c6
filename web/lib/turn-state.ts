/**
 * The turn-level state the message fold does not carry: where the turn stands (running, paused for
 * an approval, finished how), its diagnosis, usage so far, the last event index seen (so a resumed
 * stream never applies an event twice) and when each tool call started and ended on this page.
 * Pure: `applyChunk` returns a new state and whether the chunk is new.
 */
import type { UIMessageChunk } from "ai";
import { FinishMetadata, UsageFigures, type TurnStatus } from "@contracts/stream-parts";

export type { TurnStatus } from "@contracts/stream-parts";

/** Token and cost totals as `data-usage` and the finish metadata report them. */
export type TurnUsage = UsageFigures;

/** Start and end (ms, page clock) of a tool call observed live; absent when only replayed. */
export interface ToolTiming {
  start?: number;
  end?: number;
}

/** State of one turn as the page knows it. */
export interface TurnState {
  status: TurnStatus;
  /** The server's diagnosis when the turn failed. */
  errorText: string | null;
  /** Highest event index applied; -1 before any. */
  lastIdx: number;
  /** True once the stream said the turn is over (finish, abort or `[DONE]`). */
  ended: boolean;
  /** Approval ids requested and not yet answered. */
  pendingApprovals: string[];
  /** Running totals of this turn (latest `data-usage`). */
  usage: TurnUsage | null;
  /** Finish metadata (usage, timing, model, rounds) when the turn finished. */
  finish: Partial<FinishMetadata> | null;
  toolTimes: Record<string, ToolTiming>;
}

/** A fresh turn. */
export function initialTurnState(): TurnState {
  return {
    status: "running",
    errorText: null,
    lastIdx: -1,
    ended: false,
    pendingApprovals: [],
    usage: null,
    finish: null,
    toolTimes: {},
  };
}

/** The finish metadata as far as it was sent (a stored or older turn may carry only some of it). */
const FinishedTurn = FinishMetadata.partial();

/** Usage figures with an optional running total: a `data-usage` payload or the finish metadata's usage. */
const UsageWithTotal = UsageFigures.extend({ total: UsageFigures.optional() });

/** Reads a `data-usage` payload's running total (or its own round figures when no total is sent). */
export function usageOf(data: unknown): TurnUsage | null {
  const parsed = UsageWithTotal.safeParse(data);
  if (!parsed.success) return null;
  const { total, ...own } = parsed.data;
  return total ?? own;
}

function timed(state: TurnState, id: string, key: keyof ToolTiming, now: number | null): Record<string, ToolTiming> {
  if (now === null) return state.toolTimes;
  const prev = state.toolTimes[id] ?? {};
  if (prev[key] !== undefined) return state.toolTimes;
  if (key === "end" && prev.start === undefined) return state.toolTimes;
  return { ...state.toolTimes, [id]: { ...prev, [key]: now } };
}

/**
 * Applies one chunk. `idx` is the event index (null when unknown: always applied); a chunk at or
 * below `lastIdx` is a duplicate and is rejected. `now` is the page clock for live chunks, null for
 * replayed ones (their timing is unknown).
 */
export function applyChunk(
  state: TurnState,
  idx: number | null,
  chunk: UIMessageChunk,
  now: number | null,
): { state: TurnState; fresh: boolean } {
  if (idx !== null && idx <= state.lastIdx) return { state, fresh: false };
  let next: TurnState = idx === null ? state : { ...state, lastIdx: idx };
  switch (chunk.type) {
    case "tool-input-start":
    case "tool-input-available":
      next = { ...next, toolTimes: timed(next, chunk.toolCallId, "start", now) };
      break;
    case "tool-output-available":
    case "tool-output-error":
    case "tool-output-denied":
      next = { ...next, toolTimes: timed(next, chunk.toolCallId, "end", now) };
      break;
    case "tool-approval-request":
      next = {
        ...next,
        status: "awaiting_approval",
        pendingApprovals: [...next.pendingApprovals.filter((a) => a !== chunk.approvalId), chunk.approvalId],
      };
      break;
    case "tool-approval-response": {
      const pendingApprovals = next.pendingApprovals.filter((a) => a !== chunk.approvalId);
      next = { ...next, pendingApprovals, status: pendingApprovals.length > 0 ? "awaiting_approval" : "running" };
      break;
    }
    case "error":
      next = { ...next, status: "error", errorText: chunk.errorText };
      break;
    case "abort":
      next = { ...next, status: "cancelled", ended: true, pendingApprovals: [] };
      break;
    case "finish": {
      const status: TurnStatus =
        next.status === "error" || chunk.finishReason === "error"
          ? "error"
          : chunk.finishReason === "other"
            ? "rounds_exceeded"
            : "done";
      const parsed = FinishedTurn.safeParse(chunk.messageMetadata);
      const meta = parsed.success ? parsed.data : null;
      const usage = meta?.usage ?? null;
      next = { ...next, status, ended: true, pendingApprovals: [], finish: meta, usage: usage ?? next.usage };
      break;
    }
    default:
      if (chunk.type === "data-usage") {
        const usage = usageOf(chunk.data);
        if (usage) next = { ...next, usage };
      }
  }
  return { state: next, fresh: true };
}

/** The stream closed after `[DONE]`: the turn is over whatever its last chunk said. */
export function markDone(state: TurnState): TurnState {
  if (state.ended) return state;
  return { ...state, ended: true, status: state.status === "running" ? "done" : state.status };
}

/** What to do when a stream closes: the turn is over, paused for a person, or the connection was lost. */
export function afterClose(state: TurnState): "ended" | "paused" | "reconnect" {
  if (state.ended) return "ended";
  if (state.pendingApprovals.length > 0) return "paused";
  return "reconnect";
}

/** Duration of a tool call in ms when both ends were seen live. */
export function toolDuration(state: TurnState, toolCallId: string, now: number): number | null {
  const t = state.toolTimes[toolCallId];
  if (t?.start === undefined) return null;
  return (t.end ?? now) - t.start;
}
