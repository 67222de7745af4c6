/**
 * Reading a turn back from its event log: the assistant UI message exactly as an AI SDK client
 * builds it (folded with the SDK's own `readUIMessageStream`), and, for a turn resumed after
 * eviction, which tool calls of its last round already have outcomes.
 */
import { readUIMessageStream, type ModelMessage, type UIMessage, type UIMessageChunk } from "ai";
import type { StoredUIMessage } from "../contracts/api";
import type { PendingCall, ToolOutcome } from "./tool-executor";

/** Folds stored chunks into the UI message a client would hold. */
export async function foldChunks(chunks: readonly UIMessageChunk[]): Promise<UIMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, onError: () => {} })) last = message;
  return last;
}

/** A folded message in the stored shape (JSON round-trip drops `undefined`s). */
export function toStored(message: UIMessage, fallbackId: string, metadata?: Record<string, unknown>): StoredUIMessage {
  const plain = JSON.parse(JSON.stringify({ ...message, id: message.id || fallbackId })) as StoredUIMessage;
  return metadata ? { ...plain, metadata: { ...plain.metadata, ...metadata } as StoredUIMessage["metadata"] } : plain;
}

/** The last assistant message's calls, split into those with an outcome in the events and those without. */
export function unansweredCalls(
  turnMessages: readonly ModelMessage[],
  chunks: readonly UIMessageChunk[],
): { calls: PendingCall[]; done: ToolOutcome[]; order: string[] } {
  const last = [...turnMessages].reverse().find((m) => m.role === "assistant");
  const calls: PendingCall[] = [];
  if (last && Array.isArray(last.content)) {
    for (const part of last.content) {
      if (part.type === "tool-call")
        calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    }
  }
  const names = new Map(calls.map((c) => [c.toolCallId, c.toolName]));
  const outcomes = new Map<string, ToolOutcome>();
  for (const chunk of chunks) {
    if (!("toolCallId" in chunk) || !names.has(chunk.toolCallId)) continue;
    const toolName = names.get(chunk.toolCallId) ?? "";
    if (chunk.type === "tool-output-available")
      outcomes.set(chunk.toolCallId, { toolCallId: chunk.toolCallId, toolName, kind: "ok", output: chunk.output });
    if (chunk.type === "tool-output-denied")
      outcomes.set(chunk.toolCallId, {
        toolCallId: chunk.toolCallId,
        toolName,
        kind: "denied",
        reason: "the user denied this call",
      });
    if (chunk.type === "tool-output-error") {
      const at = chunk.errorText.indexOf(": ");
      const code = at > 0 ? chunk.errorText.slice(0, at) : "internal";
      outcomes.set(chunk.toolCallId, {
        toolCallId: chunk.toolCallId,
        toolName,
        kind: "error",
        code,
        message: at > 0 ? chunk.errorText.slice(at + 2) : chunk.errorText,
      });
    }
  }
  return {
    calls: calls.filter((c) => !outcomes.has(c.toolCallId)),
    done: [...outcomes.values()],
    order: calls.map((c) => c.toolCallId),
  };
}
