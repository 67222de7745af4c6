/** Stream events in batches: what goes at once, what waits, and for how long. */
import type { UIMessageChunk } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EventBatcher, MAX_EVENT_WAIT_MS, type StreamEvent } from "../../../worker/runtime/event-batcher";

function harness() {
  const batches: number[][] = [];
  const errors: unknown[] = [];
  let idx = 0;
  const batcher = new EventBatcher(
    (events) => void batches.push(events.map((e) => e.idx)),
    (error) => void errors.push(error),
  );
  const push = (chunk: UIMessageChunk, turnId = "t_1") => {
    const event: StreamEvent = { idx: idx++, turnId, chunk: JSON.stringify(chunk) };
    batcher.push(event, chunk);
    return event.idx;
  };
  return { batcher, batches, errors, push };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("EventBatcher", () => {
  it("sends the first delta of each part at once, with the marks waiting before it, however long", () => {
    const h = harness();
    h.push({ type: "start" });
    expect(h.batches).toEqual([[0]]);
    h.push({ type: "data-model-start", data: {} } as UIMessageChunk);
    h.push({ type: "start-step" });
    h.push({ type: "text-start", id: "a" });
    // Marks that show nothing wait for the first output however long the model takes.
    vi.advanceTimersByTime(MAX_EVENT_WAIT_MS * 10);
    expect(h.batches).toHaveLength(1);
    h.push({ type: "text-delta", id: "a", delta: "Ph" });
    expect(h.batches).toEqual([[0], [1, 2, 3, 4]]);
    h.push({ type: "reasoning-delta", id: "r", delta: "hm" });
    h.push({ type: "tool-input-start", toolCallId: "c", toolName: "get_time" });
    h.push({ type: "tool-input-delta", toolCallId: "c", inputTextDelta: "{" });
    expect(h.batches).toEqual([[0], [1, 2, 3, 4], [5], [6], [7]]);
  });

  it("holds later deltas of a part until the next event that goes at once, or the wait runs out", () => {
    const h = harness();
    h.push({ type: "text-delta", id: "a", delta: "1" });
    h.push({ type: "text-delta", id: "a", delta: "2" });
    h.push({ type: "text-delta", id: "a", delta: "3" });
    expect(h.batches).toEqual([[0]]);
    h.push({ type: "tool-input-available", toolCallId: "c", toolName: "get_time", input: {} });
    expect(h.batches).toEqual([[0], [1, 2, 3]]);
    h.push({ type: "text-delta", id: "b", delta: "x" });
    h.push({ type: "text-delta", id: "b", delta: "y" });
    h.push({ type: "data-usage", data: {} } as UIMessageChunk);
    vi.advanceTimersByTime(MAX_EVENT_WAIT_MS - 1);
    expect(h.batches).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(h.batches).toEqual([[0], [1, 2, 3], [4], [5, 6]]);
  });

  it("sends what waits on flush and on another turn's event; discard drops it", () => {
    const h = harness();
    h.push({ type: "text-delta", id: "a", delta: "1" });
    h.push({ type: "text-delta", id: "a", delta: "2" });
    h.batcher.flush();
    expect(h.batches).toEqual([[0], [1]]);
    h.push({ type: "text-delta", id: "a", delta: "3" });
    // Part ids are per turn: the next turn's first delta of "a" goes at once too.
    h.push({ type: "text-delta", id: "a", delta: "x" }, "t_2");
    expect(h.batches).toEqual([[0], [1], [2], [3]]);
    h.push({ type: "text-delta", id: "a", delta: "y" }, "t_2");
    h.batcher.discard();
    vi.advanceTimersByTime(MAX_EVENT_WAIT_MS * 2);
    expect(h.batches).toHaveLength(4);
  });

  it("reports a failed write of a batch sent by the timer", () => {
    const errors: unknown[] = [];
    const batcher = new EventBatcher(
      (events) => {
        if (events.length > 1) throw new Error("disk full");
      },
      (error) => void errors.push(error),
    );
    const delta = (n: number): UIMessageChunk => ({ type: "text-delta", id: "a", delta: String(n) });
    batcher.push({ idx: 0, turnId: "t", chunk: "{}" }, delta(0));
    batcher.push({ idx: 1, turnId: "t", chunk: "{}" }, delta(1));
    batcher.push({ idx: 2, turnId: "t", chunk: "{}" }, delta(2));
    vi.advanceTimersByTime(MAX_EVENT_WAIT_MS);
    expect(errors).toEqual([new Error("disk full")]);
  });
});
