/**
 * The session's approval gate (seed 000 §3): "always" choices and earlier decisions from SQLite, and
 * pending approvals recorded there so they survive eviction; the DO pauses the turn while it waits.
 */
import type { ApprovalDecision, ApprovalGate } from "../runtime/tool-executor";
import type { LiveTurn } from "./session-types";
import { decisionOf, type TurnStore } from "./turn-store";

/** Builds the gate of one turn; `pause`/`resume` are the DO's side of waiting for a person. */
export function createApprovalGate(
  turns: TurnStore,
  turnId: string,
  live: LiveTurn,
  host: { pause(): void; resume(): void },
): ApprovalGate {
  return {
    isAlwaysAllowed: (toolName) => turns.alwaysAllowedTools().has(toolName),
    decided: (toolCallId) => {
      const row = turns.decidedApprovalFor(toolCallId);
      const decision = row ? decisionOf(row) : undefined;
      return row && decision ? { approvalId: row.id, decision } : undefined;
    },
    request: (call) =>
      new Promise<ApprovalDecision>((resolve) => {
        turns.insertApproval({
          id: call.approvalId,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          turnId,
          now: Date.now(),
        });
        turns.updateTurn(turnId, { status: "awaiting_approval" });
        host.pause();
        live.waiters.set(call.approvalId, (decision) => {
          host.resume();
          resolve(decision);
        });
      }),
  };
}
