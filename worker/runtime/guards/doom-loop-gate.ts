/** Applies doom-loop detection to a round's calls: the first looping call and the rest get errors. */
import type { UIMessageChunk } from "ai";
import type { PendingCall, ToolOutcome } from "../tool-executor";
import { canonicalArgs, detectDoomLoop, DOOM_LOOP_WINDOW, type SeenCall } from "./doom-loop";
import { dataPart } from "../../contracts/stream-parts";

/** Splits `calls` into those to run and refused outcomes; records the run ones in `seen`. */
export function screenDoomLoops(
  calls: readonly PendingCall[],
  seen: SeenCall[],
  emit: (chunk: UIMessageChunk) => void,
): { run: PendingCall[]; refused: ToolOutcome[] } {
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i] as PendingCall;
    const verdict = detectDoomLoop(seen, { toolName: call.toolName, args: canonicalArgs(call.input) });
    if (verdict.tripped) {
      emit(dataPart("data-guard", { kind: "doom_loop", tool: call.toolName, how: verdict.how, count: verdict.count }));
      const refused = calls.slice(i).map((c): ToolOutcome => {
        const message = `doom loop: ${c.toolName} was called with the same arguments ${verdict.count} times in the last ${DOOM_LOOP_WINDOW} calls; the batch was stopped. Change the approach or answer with what you have.`;
        emit({ type: "tool-output-error", toolCallId: c.toolCallId, errorText: `doom_loop: ${message}` });
        return {
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          kind: "error",
          code: "doom_loop",
          message,
          input: c.input,
        };
      });
      return { run: calls.slice(0, i), refused };
    }
    seen.push({ toolName: call.toolName, args: canonicalArgs(call.input) });
  }
  return { run: [...calls], refused: [] };
}
