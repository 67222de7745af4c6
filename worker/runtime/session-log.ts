/**
 * The session log as the turn controller needs it: the session's record, its UI messages, its turns,
 * their event log and model transcript, approvals and pending notifications. Pure storage, no policy
 * (the policy lives in turn-controller.ts); the session Durable Object adapts its SQLite to it.
 */
import type { ModelMessage } from "ai";
import type { StoredUIMessage } from "../contracts/api";
import type { Lang } from "./errors";
import type { ApprovalDecision } from "./tool-executor";

/** A turn's state. */
export type TurnStatus = "running" | "awaiting_approval" | "done" | "cancelled" | "error" | "rounds_exceeded";

/** A stored turn. */
export interface TurnRecord {
  id: string;
  status: TurnStatus;
  userMessageId: string;
  assistantMessageId: string;
  lang: Lang;
  modelId: string | null;
  rounds: number;
}

/** A turn to open. */
export interface NewTurn {
  id: string;
  status: TurnStatus;
  userMessageId: string;
  assistantMessageId: string;
  lang: Lang;
  startedAt: number;
}

/** What may change on a stored turn. */
export interface TurnPatch {
  status?: TurnStatus;
  rounds?: number;
  modelId?: string | null;
  error?: string | null;
  endedAt?: number;
}

/** The session's own record as the turns use it. */
export interface SessionRecord {
  id: string;
  ownerId: string;
  title: string;
  profile: string | null;
  compactionSummary: string | null;
  compactedThrough: number | null;
  /** Set when a deletion began: the session opens no turn from then on (user message or notification). */
  deletedAt?: number | null;
}

/** A recorded approval. */
export interface ApprovalRecord {
  id: string;
  turnId: string;
  toolCallId: string;
  toolName: string;
  status: string;
}

/** A task's result waiting to be reported. */
export interface PendingNotification {
  id: string;
  text: string;
}

/** Token totals a turn adds to the session. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

/** The session's storage, synchronous (the DO's SQLite is in-process). */
export interface SessionLog {
  meta(): SessionRecord | undefined;
  setTitle(title: string): void;
  setCompaction(summary: string, coveredCount: number): void;
  addUsage(usage: UsageTotals): void;
  appendMessage(message: StoredUIMessage, now: number): void;

  lastTurn(): TurnRecord | undefined;
  /** A turn still running or waiting for an approval. */
  openTurn(): TurnRecord | undefined;
  insertTurn(turn: NewTurn): void;
  updateTurn(id: string, patch: TurnPatch): void;

  nextEventIndex(): number;
  /** Appends events in index order (one batch: one commit in the session DO). */
  appendEvents(events: readonly { idx: number; turnId: string; chunk: string }[]): void;
  eventsOf(turnId: string, from?: number): { idx: number; chunk: string }[];
  appendModelMessages(turnId: string, messages: readonly ModelMessage[]): void;
  modelMessages(): { turnId: string; message: ModelMessage }[];

  insertApproval(row: {
    id: string;
    turnId: string;
    toolCallId: string;
    toolName: string;
    input: unknown;
    now: number;
  }): void;
  approval(id: string): ApprovalRecord | undefined;
  /** The user's earlier answer to a tool call's approval, if any. */
  decidedApproval(toolCallId: string): { approvalId: string; decision: ApprovalDecision } | undefined;
  pendingApprovals(turnId: string): ApprovalRecord[];
  /** Records a decision; `by` is who answered (for the audit trail). */
  decide(id: string, decision: ApprovalDecision, now: number, by?: string | null): void;
  denyPending(turnId: string, now: number): void;
  allowAlways(toolName: string): void;
  alwaysAllowedTools(): Set<string>;

  /** Records a notification once per id; false when it was already recorded. */
  insertNotification(id: string, text: string, now: number): boolean;
  nextNotification(): PendingNotification | undefined;
  markDelivered(id: string, now: number): void;
}
