/**
 * A turn's approval gate: "always" choices and earlier decisions come from the session log, and a
 * pending approval is recorded there so it survives eviction; the host pauses the turn while it waits.
 */
import type { SessionLog } from "./session-log";
import type { ApprovalDecision, ApprovalGate } from "./tool-executor";
import type { LiveTurn } from "./live-turn";

/** Builds the gate of one turn; `pause`/`resume` are the host's side of waiting for a person. */
export function createApprovalGate(
  log: SessionLog,
  turnId: string,
  live: LiveTurn,
  host: { pause(): void; resume(): void; now(): number },
): ApprovalGate {
  return {
    isAlwaysAllowed: (toolName) => log.alwaysAllowedTools().has(toolName),
    decided: (toolCallId) => log.decidedApproval(toolCallId),
    request: (call) =>
      new Promise<ApprovalDecision>((resolve) => {
        log.insertApproval({
          id: call.approvalId,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
          turnId,
          now: host.now(),
        });
        log.updateTurn(turnId, { status: "awaiting_approval" });
        host.pause();
        live.waiters.set(call.approvalId, (decision) => {
          host.resume();
          resolve(decision);
        });
      }),
  };
}
