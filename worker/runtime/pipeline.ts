/**
 * Pipeline mode: fixed steps, each a nested loop that sees only the shared system
 * prompt, its own instruction and tools, the user's message and the earlier steps' outputs. A failing
 * step stops the pipeline, keeps what was done and reports `x/y`; no automatic retry (side-effecting
 * tools are not re-entrant). Headers, step text and notices are streamed as the answer itself, so the
 * stored message is the streamed text, character for character.
 */
import type { UIMessageChunk } from "ai";
import type { PipelineStep } from "./profiles/definitions";
import { dataPart, type FinishMetadata } from "../contracts/stream-parts";
import { runNested } from "./nested";
import { runTurn } from "./run-turn";
import type { TurnDeps, TurnRequest, TurnResult } from "./turn-types";
import { addEntry, addUsage, ZERO_USAGE, type UsageEntry } from "./usage";
import type { RoundUsage } from "./stream-round";
import { lastUserText } from "./transcript";

/** The header of step `i` of `n`. */
export function stepHeader(step: PipelineStep, i: number, n: number, lang: "zh" | "en"): string {
  return `${i === 0 ? "" : "\n\n"}### ${i + 1}/${n} ${step.title[lang]}\n\n`;
}

/** Runs the steps as one turn. */
export async function runPipeline(
  req: TurnRequest,
  deps: TurnDeps,
  steps: readonly PipelineStep[],
): Promise<TurnResult> {
  const started = deps.now();
  const question = lastUserText(req.history);
  const outputs: { step: PipelineStep; text: string }[] = [];
  let rounds = 0;
  let usage: RoundUsage = ZERO_USAGE;
  let ledger: UsageEntry[] = [];
  let answer = "";
  let part = 0;
  const say = (text: string) => {
    const id = `pipeline-${part++}`;
    deps.emit({ type: "text-start", id });
    deps.emit({ type: "text-delta", id, delta: text });
    deps.emit({ type: "text-end", id });
    answer += text;
  };
  const finish = (status: TurnResult["status"], error?: string): TurnResult => {
    deps.onMessages([{ role: "assistant", content: [{ type: "text", text: answer }] }]);
    deps.emit({
      type: "finish",
      finishReason: status === "done" ? "stop" : "error",
      messageMetadata: {
        usage,
        timing: { startedAt: new Date(started).toISOString(), ms: deps.now() - started },
        model: deps.models.primary.id,
        rounds,
        pipeline: { steps: steps.length, completed: outputs.length },
      } satisfies FinishMetadata,
    });
    return { status, rounds, usage, modelId: deps.models.primary.id, byPurpose: ledger, ...(error ? { error } : {}) };
  };

  if (!req.started) deps.emit({ type: "start", messageId: req.messageId });
  for (const [i, step] of steps.entries()) {
    if (req.signal.aborted) {
      deps.emit({ type: "abort", reason: "cancelled" });
      return { status: "cancelled", rounds, usage, modelId: deps.models.primary.id, byPurpose: ledger };
    }
    // Marks where the step's parts begin (the audit trail seals one entry per step); not part of the message.
    deps.emit(
      dataPart("data-pipeline-step", { index: i, name: step.name, of: steps.length }, undefined, { transient: true }),
    );
    say(stepHeader(step, i, steps.length, req.lang));
    const earlier = outputs.map((o) => `## ${o.step.title.en}\n${o.text}`).join("\n\n");
    let stepText = "";
    const nested = await runNested(runTurn, {
      parent: req,
      parentDeps: deps,
      active: deps.models.primary,
      idSuffix: `step-${step.name}`,
      system: `${req.system}\n\n${step.instruction}`,
      context: req.context,
      question: earlier ? `${question}\n\nEarlier steps:\n${earlier}` : question,
      tools: deps.tools.filter((t) => step.tools.includes(t.spec.name)),
      maxRounds: step.maxRounds,
      signal: req.signal,
      translate: (chunk: UIMessageChunk) => {
        if (chunk.type === "text-delta") {
          stepText += chunk.delta;
          answer += chunk.delta;
        }
        if (chunk.type === "error" || chunk.type === "abort" || chunk.type === "data-usage") return;
        deps.emit(chunk);
      },
    });
    rounds += nested.result.rounds;
    usage = addUsage(usage, nested.result.usage);
    for (const e of nested.result.byPurpose ?? []) ledger = addEntry(ledger, e);
    const failed = nested.result.status !== "done" || stepText.trim() === "";
    if (failed) {
      if (nested.result.status === "cancelled") {
        deps.emit({ type: "abort", reason: "cancelled" });
        return { status: "cancelled", rounds, usage, modelId: deps.models.primary.id, byPurpose: ledger };
      }
      const why =
        nested.result.error ??
        (stepText.trim() === "" ? (req.lang === "zh" ? "没有输出" : "no output") : nested.result.status);
      say(
        req.lang === "zh"
          ? `\n\n（流水线在第 ${i + 1}/${steps.length} 步停止：${why}。已完成 ${outputs.length}/${steps.length} 步。）`
          : `\n\n(The pipeline stopped at step ${i + 1}/${steps.length}: ${why}. Completed ${outputs.length}/${steps.length} steps.)`,
      );
      return finish("error", `step ${step.name} failed: ${why}`);
    }
    outputs.push({ step, text: stepText });
  }
  return finish("done");
}
