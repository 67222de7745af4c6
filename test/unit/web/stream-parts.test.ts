/**
 * The newer stream parts, folded with the AI SDK exactly as the page does: a sub-agent's progress and
 * tool calls nested under its delegate call, a loop-guard warning as a banner on top (without the
 * duplicate text), compaction/doom-loop/notification notes, and notification user messages.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import {
  allTools,
  delegateAgent,
  isNotification,
  pendingApproval,
  toBlocks,
  type NoteBlock,
  type ToolBlock,
} from "../../../web/lib/message-view";
import { describeNote } from "../../../web/lib/note-text";

/** Folds chunks with the AI SDK (copies: the SDK keeps data chunks as parts and updates them in place). */
async function fold(chunks: UIMessageChunk[]): Promise<UIMessage | undefined> {
  chunks = structuredClone(chunks);
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

const sub = { subagent: "analysis" };

/** The chunks `worker/runtime/subagents.ts` emits for one delegation with one nested tool call. */
const delegation: UIMessageChunk[] = [
  { type: "start", messageId: "m1" },
  { type: "start-step" },
  { type: "tool-input-start", toolCallId: "d1", toolName: "delegate_to_analysis" },
  {
    type: "tool-input-available",
    toolCallId: "d1",
    toolName: "delegate_to_analysis",
    input: { task: "read SIM.0002" },
  },
  { type: "data-subagent", id: "d1", data: { agent: "analysis", task: "read SIM.0002", text: "", status: "running" } },
  { type: "tool-input-start", toolCallId: "n1", toolName: "analyze_stock", toolMetadata: sub },
  {
    type: "tool-input-available",
    toolCallId: "n1",
    toolName: "analyze_stock",
    input: { code: "SIM.0002" },
    toolMetadata: sub,
  },
  { type: "tool-output-available", toolCallId: "n1", output: { ok: true }, toolMetadata: sub },
  {
    type: "data-subagent",
    id: "d1",
    data: { agent: "analysis", task: "read SIM.0002", text: "Markup phase.", status: "done" },
  },
  {
    type: "tool-output-available",
    toolCallId: "d1",
    output: { agent: "analysis", answer: "Markup phase." },
    toolMetadata: { ms: 900 },
  },
  { type: "finish-step" },
  { type: "start-step" },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "SIM.0002 is in markup." },
  { type: "text-end", id: "t" },
];

describe("sub-agents", () => {
  it("nests the sub-agent's calls and progress under the delegate card, updated in place", async () => {
    const blocks = toBlocks((await fold(delegation))?.parts ?? []);
    expect(blocks.map((b) => b.kind)).toEqual(["tool", "text"]);
    const delegate = blocks[0] as ToolBlock;
    expect(delegate).toMatchObject({
      toolName: "delegate_to_analysis",
      phase: "done",
      ms: 900,
      subagent: null,
      run: { agent: "analysis", task: "read SIM.0002", text: "Markup phase.", status: "done" },
    });
    expect(delegate.nested).toHaveLength(1);
    expect(delegate.nested[0]).toMatchObject({ toolName: "analyze_stock", subagent: "analysis", phase: "done" });
    expect(allTools(blocks).map((b) => b.toolCallId)).toEqual(["d1", "n1"]);
  });

  it("shows the sub-agent running while the delegation is under way", async () => {
    const blocks = toBlocks((await fold(delegation.slice(0, 7)))?.parts ?? []);
    const delegate = blocks[0] as ToolBlock;
    expect(delegate.phase).toBe("running");
    expect(delegate.run?.status).toBe("running");
    expect(delegate.nested[0]?.phase).toBe("running");
  });

  it("finds an approval a sub-agent is waiting for", async () => {
    const m = await fold([
      ...delegation.slice(0, 5),
      {
        type: "tool-input-available",
        toolCallId: "n2",
        toolName: "update_portfolio",
        input: {},
        toolMetadata: { subagent: "analysis" },
      },
      { type: "tool-approval-request", approvalId: "ap", toolCallId: "n2" },
    ]);
    expect(pendingApproval(toBlocks(m?.parts ?? []))).toMatchObject({ toolCallId: "n2", approvalId: "ap" });
  });

  it("labels a sub-agent call with no delegate card, and draws orphan progress on its own", () => {
    const blocks = toBlocks([
      {
        type: "tool-get_time",
        toolCallId: "x",
        state: "output-available",
        input: {},
        output: {},
        toolMetadata: { subagent: "research" },
      },
      { type: "data-subagent", id: "gone", data: { agent: "research", task: "t", text: "x", status: "done" } },
    ]);
    expect(blocks).toMatchObject([
      { kind: "tool", subagent: "research" },
      { kind: "subagent", agent: "research", status: "done" },
    ]);
  });

  it("names the agent of a delegate tool", () => {
    expect(delegateAgent("delegate_to_trading")).toBe("trading");
    expect(delegateAgent("analyze_stock")).toBeNull();
  });
});

describe("guards", () => {
  it("puts a prefix loop-guard warning on top as a banner and drops the text the runtime appended", async () => {
    const warning = "⚠️ Note: this answer was given without calling analyze_stock.";
    const m = await fold([
      { type: "start" },
      { type: "text-start", id: "a" },
      { type: "text-delta", id: "a", delta: "It looks fine." },
      { type: "text-end", id: "a" },
      { type: "data-guard", data: { kind: "loop_guard", tool: "analyze_stock", placement: "prefix", text: warning } },
      { type: "text-start", id: "guard-warning" },
      { type: "text-delta", id: "guard-warning", delta: `\n\n${warning}` },
      { type: "text-end", id: "guard-warning" },
    ]);
    const blocks = toBlocks(m?.parts ?? []);
    expect(blocks).toMatchObject([
      { kind: "banner", guard: "loop_guard", tool: "analyze_stock", text: warning },
      { kind: "text", text: "It looks fine." },
    ]);
  });

  it("keeps a doom-loop stop as a quiet note naming the tool", () => {
    const [note] = toBlocks([
      { type: "data-guard", data: { kind: "doom_loop", tool: "get_time", how: "same_args", count: 3 } },
    ]);
    expect(note).toMatchObject({ kind: "note", note: "guard" });
    expect(describeNote(note as NoteBlock)).toEqual({ key: "noteDoomLoop", vars: { tool: "get_time", count: "3" } });
  });
});

describe("notes", () => {
  const note = (type: string, data: Record<string, unknown>) => toBlocks([{ type, data }])[0] as NoteBlock;

  it("describes a compaction with its figures, a failed one with its reason, and cut messages", () => {
    expect(
      describeNote(
        note("data-compaction", { tokensBefore: 52_000, tokensAfter: 9_000, messagesBefore: 80, messagesAfter: 12 }),
      ),
    ).toEqual({
      key: "noteCompacted",
      vars: { before: "52.0k", after: "9,000", messagesBefore: "80", messagesAfter: "12" },
    });
    expect(describeNote(note("data-compaction", { failed: true, reason: "model down", tokensBefore: 1 }))).toEqual({
      key: "noteCompactionFailed",
      vars: { reason: "model down" },
    });
    expect(describeNote(note("data-compaction", { truncatedMessages: 2 }))).toEqual({
      key: "noteTruncated",
      vars: { count: 2 },
    });
  });

  it("describes retries, a loop-guard retry, a fallback and a finished task", () => {
    expect(describeNote(note("data-retry", { reason: "http_5xx", status: 503, delayMs: 1500 }))).toEqual({
      key: "noteRetry",
      vars: { reason: "http_5xx 503", delay: "1.5 s" },
    });
    expect(describeNote(note("data-retry", { reason: "loop_guard", tool: "portfolio", attempt: 1 }))).toEqual({
      key: "noteGuardRetry",
      vars: { tool: "portfolio", attempt: "1" },
    });
    expect(describeNote(note("data-retry", { reason: "http_5xx", from: "a", to: "b" })).key).toBe("noteFallback");
    expect(describeNote(note("data-notification", { taskId: "tk_1", text: "done" }))).toEqual({
      key: "noteTaskFinished",
      vars: { task: "tk_1" },
    });
  });

  it("tells a notification user message from the person's own", () => {
    expect(isNotification({ kind: "notification", taskId: "tk_1" })).toBe(true);
    expect(isNotification(undefined)).toBe(false);
    expect(isNotification({ kind: "user" })).toBe(false);
  });
});
