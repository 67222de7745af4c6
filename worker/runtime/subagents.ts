/**
 * Sub-agents: research, analysis and trading, each a nested loop with its own prompt and
 * its tool subset (`SUBAGENT_TOOLS`); anything else is refused and reported. Their tool calls stream to the client
 * as ordinary tool parts marked `toolMetadata.subagent`; their text as a `data-subagent` part updated in
 * place; their final answer returns to the main loop as the delegate tool's result.
 */
import type { UIMessageChunk } from "ai";
import type { SubagentOutcome, SubagentRunner } from "../ports/subagent";
import { SUBAGENT_TOOLS, type SubagentName } from "./profiles/definitions";
import type { NamedModel } from "./model";
import { runNested } from "./nested";
import type { RunTurn, TurnDeps, TurnRequest, TurnResult } from "./turn-types";
import { dataPart } from "../contracts/stream-parts";

const PROMPTS: Record<SubagentName, string> = {
  research:
    "You are the research sub-agent of wyckoff-edge. Gather the data the task asks for with your tools, then report the findings concisely with numbers, sources and as-of dates. Do not give trading advice.",
  analysis:
    "You are the analysis sub-agent of wyckoff-edge. Study the symbols or holdings in the task by the Wyckoff method (range, events, phase, health, stops) and report a concise, evidence-based reading.",
  trading:
    "You are the trading sub-agent of wyckoff-edge. Decide what to do with the holdings in the task (exit, trim, hold, probe, attack) with reasons and stops; any portfolio change goes through update_portfolio and needs the user's approval.",
};

/** Most rounds one delegation may use (within what the turn has left). */
const MAX_SUBAGENT_ROUNDS = 8;

/** Builds the runner the delegate tools use in this turn. */
export function createSubagentRunner(o: {
  /** The loop each delegation runs (injected: the loop builds this runner). */
  runTurn: RunTurn;
  request: TurnRequest;
  deps: TurnDeps;
  active: () => NamedModel;
  emit: (chunk: UIMessageChunk) => void;
  spend: (rounds: number) => number;
  remaining: () => number;
  /** Adds a finished delegation's usage to the turn's. */
  account: (result: TurnResult) => void;
}): SubagentRunner {
  const all = o.deps.allTools ?? o.deps.tools;
  return {
    async run({ agent, task, context, toolCallId }): Promise<SubagentOutcome> {
      const signal = o.request.signal;
      const allowed = new Set<string>(SUBAGENT_TOOLS[agent]);
      const tools = all.filter((t) => allowed.has(t.spec.name));
      const refused: string[] = [];
      const budget = Math.min(MAX_SUBAGENT_ROUNDS, o.remaining());
      if (budget <= 0) return { agent, answer: "", rounds: 0, toolsUsed: [], refused, status: "rounds_exceeded" };
      let text = "";
      const progress = (status: "running" | "done" | "error") =>
        o.emit(dataPart("data-subagent", { agent, task, text, status }, toolCallId));
      progress("running");
      const marked = { subagent: agent };
      const nested = await runNested(o.runTurn, {
        parent: o.request,
        parentDeps: o.deps,
        active: o.active(),
        idSuffix: `${agent}-${toolCallId}`,
        system: `${PROMPTS[agent]}\n\nYour tools: ${[...allowed].join(", ")}.`,
        question: context ? `${task}\n\nContext:\n${context}` : task,
        tools,
        maxRounds: budget,
        signal,
        refuse: (name) => {
          if (!all.some((t) => t.spec.name === name)) return undefined;
          refused.push(name);
          return `${name} is not available to the ${agent} sub-agent (its tools: ${[...allowed].join(", ")})`;
        },
        translate: (chunk) => {
          switch (chunk.type) {
            case "text-delta":
              text += chunk.delta;
              if (text.length % 200 < chunk.delta.length) progress("running");
              return;
            case "tool-input-start":
            case "tool-input-available":
            case "tool-output-available":
            case "tool-output-error":
              // Keep the executor's metadata (run time) and say which delegation the call belongs to.
              o.emit({
                ...chunk,
                toolMetadata: { ...("toolMetadata" in chunk ? chunk.toolMetadata : {}), ...marked, parent: toolCallId },
              });
              return;
            case "tool-input-delta":
            case "tool-approval-request":
            case "tool-approval-response":
            case "tool-output-denied":
            case "data-guard":
              o.emit(chunk);
              return;
            default:
              return;
          }
        },
      });
      o.spend(nested.result.rounds);
      o.account(nested.result);
      const status =
        nested.result.status === "done"
          ? "done"
          : nested.result.status === "rounds_exceeded"
            ? "rounds_exceeded"
            : "error";
      text = nested.answer || text;
      progress(status === "error" ? "error" : "done");
      return {
        agent,
        answer: nested.answer || text,
        rounds: nested.result.rounds,
        toolsUsed: nested.toolsUsed,
        refused,
        status,
      };
    },
  };
}
