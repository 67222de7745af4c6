/** Turn-level state from stream chunks: status, dedup by event index, approvals, usage, tool timing. */
import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import {
  afterClose,
  applyChunk,
  initialTurnState,
  markDone,
  toolDuration,
  type TurnState,
} from "../../../web/lib/turn-state";

function run(chunks: [number | null, UIMessageChunk][], now: number | null = null): TurnState {
  return chunks.reduce((s, [idx, c]) => applyChunk(s, idx, c, now).state, initialTurnState());
}

describe("applyChunk", () => {
  it("rejects an event at or below the last index seen, so a resumed stream shows nothing twice", () => {
    const s1 = applyChunk(initialTurnState(), 4, { type: "start" }, null).state;
    expect(s1.lastIdx).toBe(4);
    expect(applyChunk(s1, 4, { type: "text-start", id: "t" }, null).fresh).toBe(false);
    expect(applyChunk(s1, 2, { type: "text-start", id: "t" }, null).fresh).toBe(false);
    expect(applyChunk(s1, 5, { type: "text-start", id: "t" }, null).fresh).toBe(true);
  });

  it("pauses at an approval request and runs again once it is answered", () => {
    const paused = run([
      [0, { type: "start" }],
      [1, { type: "tool-input-available", toolCallId: "c1", toolName: "rename_session", input: { title: "x" } }],
      [2, { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" }],
    ]);
    expect(paused.status).toBe("awaiting_approval");
    expect(paused.pendingApprovals).toEqual(["a1"]);
    expect(afterClose(paused)).toBe("paused");
    const resumed = applyChunk(
      paused,
      3,
      { type: "tool-approval-response", approvalId: "a1", approved: true },
      null,
    ).state;
    expect(resumed.status).toBe("running");
    expect(afterClose(resumed)).toBe("reconnect");
  });

  it("keeps the diagnosis of an error through the finish that follows it", () => {
    const s = run([
      [0, { type: "start" }],
      [1, { type: "error", errorText: "the model endpoint answered 401: check LLM_API_KEY" }],
      [2, { type: "finish", finishReason: "error" }],
    ]);
    expect(s.status).toBe("error");
    expect(s.errorText).toContain("LLM_API_KEY");
    expect(s.ended).toBe(true);
    expect(afterClose(s)).toBe("ended");
  });

  it("marks a cancelled turn on abort and a finished one on finish, with its usage", () => {
    expect(run([[0, { type: "abort", reason: "cancelled" }]]).status).toBe("cancelled");
    const done = run([
      [0, { type: "data-usage", data: { round: 1, inputTokens: 5, total: { inputTokens: 5, outputTokens: 2 } } }],
      [
        1,
        {
          type: "finish",
          finishReason: "stop",
          messageMetadata: { usage: { inputTokens: 9, outputTokens: 3, reasoningTokens: 1, cachedInputTokens: 0 } },
        },
      ],
    ]);
    expect(done.status).toBe("done");
    expect(done.usage).toEqual({
      inputTokens: 9,
      outputTokens: 3,
      reasoningTokens: 1,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0,
    });
    expect(run([[0, { type: "finish", finishReason: "other" }]]).status).toBe("rounds_exceeded");
  });

  it("reads running usage totals from data-usage", () => {
    const s = run([
      [0, { type: "data-usage", data: { round: 2, inputTokens: 1, total: { inputTokens: 40, outputTokens: 7 } } }],
    ]);
    expect(s.usage).toEqual({
      inputTokens: 40,
      outputTokens: 7,
      reasoningTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0,
    });
  });

  it("times tool calls seen live and leaves replayed ones untimed", () => {
    let s = applyChunk(
      initialTurnState(),
      0,
      { type: "tool-input-available", toolCallId: "c", toolName: "get_time", input: {} },
      100,
    ).state;
    s = applyChunk(s, 1, { type: "tool-output-available", toolCallId: "c", output: {} }, 350).state;
    expect(toolDuration(s, "c", 999)).toBe(250);
    const replayed = run([
      [0, { type: "tool-input-available", toolCallId: "r", toolName: "get_time", input: {} }],
      [1, { type: "tool-output-available", toolCallId: "r", output: {} }],
    ]);
    expect(toolDuration(replayed, "r", 999)).toBeNull();
  });

  it("applies chunks without an index in order", () => {
    const s = run([
      [null, { type: "start" }],
      [null, { type: "abort" }],
    ]);
    expect(s.lastIdx).toBe(-1);
    expect(s.status).toBe("cancelled");
  });
});

describe("markDone / afterClose", () => {
  it("treats a stream closed with [DONE] as the end of the turn", () => {
    const s = markDone(run([[0, { type: "start" }]]));
    expect(s.ended).toBe(true);
    expect(s.status).toBe("done");
    expect(afterClose(s)).toBe("ended");
  });

  it("reconnects when a running turn's stream closes without [DONE]", () => {
    expect(afterClose(run([[0, { type: "start" }]]))).toBe("reconnect");
  });
});
