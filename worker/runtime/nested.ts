/**
 * A nested loop inside the current turn (sub-agents and pipeline steps): `runTurn` with its own
 * system prompt, a narrowed tool set and round budget, its chunks passed through a translator
 * instead of straight to the client, and nothing persisted as the session's transcript.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import type { BoundTool } from "../tools/bind";
import type { NamedModel } from "./model";
import type { RunTurn, TurnDeps, TurnRequest, TurnResult } from "./turn-types";

/** What a nested run produced. */
export interface NestedResult {
  result: TurnResult;
  /** The final assistant text. */
  answer: string;
  toolsUsed: string[];
}

/** Options of a nested run. */
export interface NestedOptions {
  parent: TurnRequest;
  parentDeps: TurnDeps;
  active: NamedModel;
  idSuffix: string;
  system: string;
  question: string;
  tools: readonly BoundTool[];
  maxRounds: number;
  signal: AbortSignal;
  /** Receives the nested loop's chunks (already without start/finish). */
  translate(chunk: UIMessageChunk): void;
  refuse?: (toolName: string) => string | undefined;
}

function textOf(m: ModelMessage | undefined): string {
  if (!m || typeof m.content === "string") return typeof m?.content === "string" ? m.content : "";
  return m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** Runs the nested loop (`runTurn`, passed in by the caller) to its end. */
export async function runNested(runTurn: RunTurn, o: NestedOptions): Promise<NestedResult> {
  const appended: ModelMessage[] = [];
  const toolsUsed = new Set<string>();
  const result = await runTurn(
    {
      sessionId: o.parent.sessionId,
      turnId: o.parent.turnId,
      userId: o.parent.userId,
      messageId: `${o.parent.messageId}-${o.idSuffix}`,
      system: o.system,
      history: [{ role: "user", content: o.question }],
      lang: o.parent.lang,
      signal: o.signal,
      limits: { ...o.parent.limits, maxRounds: Math.max(1, o.maxRounds) },
    },
    {
      ...o.parentDeps,
      models: { primary: o.active, fallback: o.parentDeps.models.fallback, offline: o.parentDeps.models.offline },
      tools: o.tools,
      nested: true,
      memory: undefined,
      emit: (chunk) => {
        if (chunk.type === "start" || chunk.type === "finish") return;
        if (chunk.type === "tool-input-available") toolsUsed.add(chunk.toolName);
        o.translate(chunk);
      },
      onMessages: (messages) => appended.push(...messages),
      onCompaction: () => {},
      memoryFlush: { flushBeforeCompaction: async () => {} },
      ...(o.refuse ? { refuse: o.refuse } : {}),
    },
  );
  const last = [...appended].reverse().find((m) => m.role === "assistant");
  return { result, answer: textOf(last), toolsUsed: [...toolsUsed] };
}
