/**
 * Recovers tool calls that some OpenAI-compatible models (Qwen/Hermes-style, small local models)
 * write as text: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`. A stream middleware holds back
 * text that may be a tag, turns each complete block into a real tool call and sets the finish reason.
 */
import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

/** A call parsed from a text block, or null when the block is not a call. */
export function parseToolCallBlock(block: string): { toolName: string; input: string } | null {
  try {
    const value: unknown = JSON.parse(block.trim());
    if (typeof value !== "object" || value === null) return null;
    const record = value as Record<string, unknown>;
    const name = record.name;
    const args = record.arguments ?? record.parameters ?? {};
    if (typeof name !== "string" || name === "") return null;
    return { toolName: name, input: typeof args === "string" ? args : JSON.stringify(args) };
  } catch {
    return null;
  }
}

/** Length of the longest suffix of `text` that is a prefix of `tag` (text that may still become the tag). */
function heldBack(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

/** The middleware (streaming only; generate results pass through). */
export const textToolCallMiddleware: LanguageModelV4Middleware = {
  specificationVersion: "v4",
  wrapStream: async ({ doStream }) => {
    const result = await doStream();
    let pending = "";
    let inCall = false;
    let textId: string | undefined;
    let callCount = 0;
    const calls: { toolName: string; input: string }[] = [];

    const transform = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
      transform(part, controller) {
        if (part.type !== "text-delta") {
          if (part.type === "text-start") textId = part.id;
          if (part.type === "text-end" && pending !== "") {
            controller.enqueue({ type: "text-delta", id: part.id, delta: inCall ? OPEN + pending : pending });
            pending = "";
            inCall = false;
          }
          if (part.type === "finish" && calls.length > 0) {
            for (const call of calls.splice(0)) {
              const toolCallId = `text-call-${++callCount}`;
              controller.enqueue({ type: "tool-input-start", id: toolCallId, toolName: call.toolName });
              controller.enqueue({ type: "tool-input-delta", id: toolCallId, delta: call.input });
              controller.enqueue({ type: "tool-input-end", id: toolCallId });
              controller.enqueue({ type: "tool-call", toolCallId, toolName: call.toolName, input: call.input });
            }
            controller.enqueue({ ...part, finishReason: { unified: "tool-calls", raw: part.finishReason.raw } });
            return;
          }
          controller.enqueue(part);
          return;
        }
        pending += part.delta;
        let out = "";
        for (;;) {
          if (!inCall) {
            const at = pending.indexOf(OPEN);
            if (at === -1) {
              const keep = heldBack(pending, OPEN);
              out += pending.slice(0, pending.length - keep);
              pending = pending.slice(pending.length - keep);
              break;
            }
            out += pending.slice(0, at);
            pending = pending.slice(at + OPEN.length);
            inCall = true;
          } else {
            const end = pending.indexOf(CLOSE);
            if (end === -1) break;
            const block = pending.slice(0, end);
            const call = parseToolCallBlock(block);
            if (call) calls.push(call);
            else out += OPEN + block + CLOSE;
            pending = pending.slice(end + CLOSE.length);
            inCall = false;
          }
        }
        if (out !== "") controller.enqueue({ type: "text-delta", id: textId ?? part.id, delta: out });
      },
    });
    return { ...result, stream: result.stream.pipeThrough(transform) };
  },
};
