/** Stream-to-view mapping: UI message parts (live or stored) → the blocks the reading room draws. */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import {
  collectTasks,
  errorOf,
  pendingApproval,
  statusOf,
  toBlocks,
  toolNameOf,
  userText,
} from "../../../web/lib/message-view";

/** Folds chunks with the AI SDK, exactly as the page does. */
async function fold(chunks: UIMessageChunk[]): Promise<UIMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, onError: () => {} })) last = m;
  return last;
}

const toolTurn: UIMessageChunk[] = [
  { type: "start", messageId: "m1" },
  { type: "data-model-start", data: { round: 1, attempt: 1, model: "scripted" } },
  { type: "start-step" },
  { type: "reasoning-start", id: "r" },
  { type: "reasoning-delta", id: "r", delta: "look it up" },
  { type: "reasoning-end", id: "r" },
  { type: "tool-input-start", toolCallId: "c1", toolName: "get_time" },
  { type: "tool-input-available", toolCallId: "c1", toolName: "get_time", input: { market: "cn" } },
  { type: "finish-step" },
  { type: "data-usage", data: { round: 1, inputTokens: 1 } },
  { type: "tool-output-available", toolCallId: "c1", output: { open: true } },
  { type: "data-retry", data: { round: 2, reason: "http_5xx", status: 503, from: "a", to: "a", delayMs: 500 } },
  { type: "data-retry", data: { round: 2, reason: "http_5xx", status: 503, from: "a", to: "b" } },
  { type: "start-step" },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "It is **open**." },
];

describe("toBlocks", () => {
  it("maps a live tool turn to reasoning, a tool card, quiet notes and streaming text, in order", async () => {
    const m = await fold(toolTurn);
    const blocks = toBlocks(m?.parts ?? []);
    expect(blocks.map((b) => b.kind)).toEqual(["reasoning", "tool", "note", "note", "text"]);
    const tool = blocks[1];
    expect(tool).toMatchObject({
      kind: "tool",
      toolName: "get_time",
      phase: "done",
      input: { market: "cn" },
      output: { open: true },
    });
    expect(blocks.filter((b) => b.kind === "note").map((b) => (b.kind === "note" ? b.note : ""))).toEqual([
      "retry",
      "fallback",
    ]);
    expect(blocks[4]).toMatchObject({ kind: "text", text: "It is **open**.", streaming: true });
  });

  it("shows a tool waiting for approval, then denied", async () => {
    const base: UIMessageChunk[] = [
      { type: "start", messageId: "m2" },
      { type: "tool-input-available", toolCallId: "c2", toolName: "rename_session", input: { title: "Moutai" } },
      { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c2" },
    ];
    const waiting = toBlocks((await fold(base))?.parts ?? []);
    expect(pendingApproval(waiting)).toMatchObject({
      toolName: "rename_session",
      phase: "approval",
      approvalId: "ap1",
    });
    const denied = toBlocks(
      (
        await fold([
          ...base,
          { type: "tool-approval-response", approvalId: "ap1", approved: false },
          { type: "tool-output-denied", toolCallId: "c2" },
        ])
      )?.parts ?? [],
    );
    expect(denied[0]).toMatchObject({ phase: "denied" });
    expect(pendingApproval(denied)).toBeNull();
  });

  it("shows a tool error with its text", async () => {
    const m = await fold([
      { type: "start" },
      { type: "tool-input-available", toolCallId: "c3", toolName: "analyze_stock", input: { code: "ZZZ" } },
      { type: "tool-output-error", toolCallId: "c3", errorText: "not_found: unknown symbol ZZZ" },
    ]);
    expect(toBlocks(m?.parts ?? [])[0]).toMatchObject({ phase: "error", errorText: "not_found: unknown symbol ZZZ" });
  });

  it("reads a stored message the same way (plain JSON parts) and skips empty text and unknown parts", () => {
    const blocks = toBlocks([
      { type: "step-start" },
      { type: "text", text: "", state: "done" },
      {
        type: "tool-get_time",
        toolCallId: "x",
        state: "output-available",
        input: {},
        output: { ok: 1 },
        toolMetadata: { ms: 42 },
      },
      { type: "dynamic-tool", toolName: "mcp_thing", toolCallId: "y", state: "input-available", input: {} },
      { type: "data-compaction", data: { before: 10 } },
      { type: "something-new" },
      { type: "text", text: "done", state: "done" },
    ]);
    expect(blocks).toMatchObject([
      { kind: "tool", toolName: "get_time", phase: "done", ms: 42 },
      { kind: "tool", toolName: "mcp_thing", phase: "running" },
      { kind: "note", note: "compaction" },
      { kind: "text", text: "done", streaming: false },
    ]);
  });
});

describe("helpers", () => {
  it("names tool parts", () => {
    expect(toolNameOf({ type: "tool-analyze_stock" })).toBe("analyze_stock");
    expect(toolNameOf({ type: "dynamic-tool", toolName: "x" })).toBe("x");
    expect(toolNameOf({ type: "text" })).toBeNull();
  });

  it("reads status and diagnosis from stored metadata", () => {
    expect(statusOf({ status: "awaiting_approval" })).toBe("awaiting_approval");
    expect(statusOf(undefined)).toBeNull();
    expect(errorOf({ status: "error", errorText: "boom" })).toBe("boom");
    expect(errorOf({ status: "error", error: "bang" })).toBe("bang");
  });

  it("keeps the latest data-task state per task", () => {
    const tasks = collectTasks([
      {
        parts: [
          {
            type: "data-task",
            data: { id: "t1", kind: "screen", status: "running", progress: { stage: "L1", pct: 10 } },
          },
        ],
      },
      {
        parts: [
          {
            type: "data-task",
            data: { id: "t1", kind: "screen", status: "running", progress: { stage: "L2", pct: 60 } },
          },
        ],
      },
    ]);
    expect(tasks).toEqual([{ id: "t1", kind: "screen", status: "running", stage: "L2", pct: 60 }]);
  });

  it("keeps a failed task's reason for the tasks panel", () => {
    const error = "gave up after repeated failures of task.run (retries exhausted)";
    const tasks = collectTasks([
      {
        parts: [
          {
            type: "data-task",
            data: { id: "t2", kind: "run_backtest", status: "failed", error, progress: { stage: "failed", pct: 100 } },
          },
        ],
      },
    ]);
    expect(tasks).toEqual([{ id: "t2", kind: "run_backtest", status: "failed", stage: "failed", pct: 100, error }]);
  });

  it("joins a user message's text parts", () => {
    expect(userText([{ type: "text", text: "a" }, { type: "file" }, { type: "text", text: "b" }])).toBe("a\nb");
  });
});

describe("a malformed-chunk warning", () => {
  it("is drawn as a visible warning note with its message", async () => {
    const { describeNote } = await import("../../../web/lib/note-text");
    const blocks = toBlocks([
      { type: "data-warning", data: { kind: "malformed_chunk", message: "A chunk could not be read." } },
    ]);
    const note = blocks.find((b) => b.kind === "note");
    expect(note).toMatchObject({ note: "warning" });
    if (note?.kind === "note")
      expect(describeNote(note)).toEqual({ key: "noteWarning", vars: { message: "A chunk could not be read." } });
  });
});
