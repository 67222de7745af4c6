/**
 * The session Durable Object's SQLite as the turn controller's `SessionLog`: the session record and
 * messages from `SessionStore`, turns, events, approvals and notifications from `TurnStore`.
 */
import type { SessionLog } from "../runtime/session-log";
import type { SessionStore } from "./session-store";
import { decisionOf, type TurnStore } from "./turn-store";

/** Adapts the two stores to the port. */
export function createSessionLog(store: SessionStore, turns: TurnStore): SessionLog {
  return {
    meta: () => store.meta(),
    setTitle: (title) => store.setTitle(title),
    setCompaction: (summary, coveredCount) => store.setCompaction(summary, coveredCount),
    addUsage: (usage) => store.addUsage(usage),
    appendMessage: (message, now) => store.appendMessage(message, now),
    lastTurn: () => turns.lastTurn(),
    openTurn: () => turns.openTurn(),
    insertTurn: (turn) => turns.insertTurn(turn),
    updateTurn: (id, patch) => turns.updateTurn(id, patch),
    nextEventIndex: () => turns.nextEventIndex(),
    appendEvents: (events) => turns.appendEvents(events),
    eventsOf: (turnId, from) => turns.eventsOf(turnId, from),
    appendModelMessages: (turnId, messages) => turns.appendModelMessages(turnId, messages),
    modelMessages: () => turns.modelMessages(),
    insertApproval: (row) => turns.insertApproval(row),
    approval: (id) => turns.approval(id),
    decidedApproval: (toolCallId) => {
      const row = turns.decidedApprovalFor(toolCallId);
      const decision = row ? decisionOf(row) : undefined;
      return row && decision ? { approvalId: row.id, decision } : undefined;
    },
    pendingApprovals: (turnId) => turns.pendingApprovals(turnId),
    decide: (id, decision, now, by) => turns.decide(id, decision, now, by ?? null),
    denyPending: (turnId, now) => turns.denyPending(turnId, now),
    allowAlways: (toolName) => turns.allowAlways(toolName),
    alwaysAllowedTools: () => turns.alwaysAllowedTools(),
    insertNotification: (id, text, now) => turns.insertNotification(id, text, now),
    nextNotification: () => turns.nextNotification(),
    markDelivered: (id, now) => turns.markDelivered(id, now),
  };
}
