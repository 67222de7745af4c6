/** Turns tool outcomes into the model's transcript: one tool message answering every call of a round. */
import type { ModelMessage } from "ai";
import type { ToolOutcome } from "./tool-executor";

type ToolResultOutput = Extract<
  Extract<ModelMessage, { role: "tool" }>["content"][number],
  { type: "tool-result" }
>["output"];

function toOutput(o: ToolOutcome): ToolResultOutput {
  if (o.kind === "ok") return { type: "json", value: (o.output ?? null) as never };
  if (o.kind === "denied") return { type: "execution-denied", reason: o.reason };
  return { type: "error-json", value: { error: { code: o.code, message: o.message } } };
}

/** The tool message for a round's outcomes (errors as `{ error: { code, message } }`, the model reads them). */
export function toolResultMessage(outcomes: readonly ToolOutcome[]): ModelMessage {
  return {
    role: "tool",
    content: outcomes.map((o) => ({
      type: "tool-result" as const,
      toolCallId: o.toolCallId,
      toolName: o.toolName,
      output: toOutput(o),
    })),
  };
}

/** Drops reasoning from earlier turns' assistant messages (kept only within the turn that produced it). */
export function withoutReasoning(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.map((m) =>
    m.role === "assistant" && Array.isArray(m.content)
      ? { ...m, content: m.content.filter((p) => p.type !== "reasoning") }
      : m,
  );
}
