/**
 * Runs `runTurn` in plain Node with in-memory ports: collects emitted chunks and appended model
 * messages, answers approvals from a script. Used by the runtime unit tests and the benchmark.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import { createLogger } from "../../worker/lib/log";
import type { ModelChain } from "../../worker/runtime/model";
import { runTurn } from "../../worker/runtime/run-turn";
import type { TurnLimits, TurnResult } from "../../worker/runtime/turn-types";
import type { ApprovalDecision } from "../../worker/runtime/tool-executor";
import type { MemoryRecall } from "../../worker/ports/memory-recall";
import type { SpillStore } from "../../worker/ports/spill-store";
import type { BoundTool } from "../../worker/tools/bind";
import type { ToolDeps } from "../../worker/tools/deps";
import { TOOLS } from "../../worker/tools/registry";

/** In-memory tool ports. */
export function fakeToolDeps(overrides: Partial<ToolDeps> = {}): ToolDeps {
  let title = "New session";
  return {
    clock: () => Date.UTC(2026, 10, 30, 2, 0, 0), // Monday 10:00 in Shanghai
    skills: { list: async () => [], get: async () => null },
    tasks: { listForSession: async () => [], get: async () => null },
    session: { rename: async (t) => ((title = t), { title }) },
    ...overrides,
  } as ToolDeps;
}

/** What a harness run produced. */
export interface HarnessRun {
  result: TurnResult;
  chunks: UIMessageChunk[];
  appended: ModelMessage[];
  compactions: { summary: string; coveredCount: number }[];
  /** Head sizes passed to the memory flush before each summary. */
  flushed: number[];
}

/** Runs one turn. */
export async function runHarnessTurn(opts: {
  models: ModelChain;
  text: string;
  tools?: readonly BoundTool[];
  toolDeps?: ToolDeps;
  decide?: (call: { toolName: string; input: unknown }) => ApprovalDecision;
  signal?: AbortSignal;
  limits?: Partial<TurnLimits>;
  onChunk?: (chunk: UIMessageChunk) => void;
  history?: ModelMessage[];
  summary?: { text: string; coveredCount: number };
  spills?: SpillStore;
  memory?: MemoryRecall;
}): Promise<HarnessRun> {
  const chunks: UIMessageChunk[] = [];
  const appended: ModelMessage[] = [];
  const compactions: { summary: string; coveredCount: number }[] = [];
  const flushed: number[] = [];
  let seq = 0;
  const result = await runTurn(
    {
      sessionId: "s_test",
      turnId: "t_test",
      userId: "local",
      messageId: "m_test",
      system: "You are a test.",
      history: [...(opts.history ?? []), { role: "user", content: opts.text }],
      ...(opts.summary ? { summary: opts.summary } : {}),
      lang: /[\u3400-\u9fff]/.test(opts.text) ? "zh" : "en",
      signal: opts.signal ?? new AbortController().signal,
      ...(opts.limits ? { limits: opts.limits } : {}),
    },
    {
      models: opts.models,
      tools: opts.tools ?? TOOLS,
      toolDeps: opts.toolDeps ?? fakeToolDeps(),
      gate: {
        isAlwaysAllowed: () => false,
        decided: () => undefined,
        request: async (call) => opts.decide?.(call) ?? { decision: "allow" },
      },
      emit: (chunk) => {
        chunks.push(chunk);
        opts.onChunk?.(chunk);
      },
      onMessages: (m) => appended.push(...m),
      onCompaction: (state) => compactions.push(state),
      memoryFlush: { flushBeforeCompaction: async (input) => void flushed.push(input.head.length) },
      spills: opts.spills,
      ...(opts.memory ? { memory: opts.memory } : {}),
      log: createLogger(() => {}),
      now: Date.now,
      newId: () => `id-${++seq}`,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  );
  return { result, chunks, appended, compactions, flushed };
}
