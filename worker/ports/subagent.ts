/** Port: running a focused sub-agent inside the current turn (seed 000 §8); provided by the runtime. */

/** What a sub-agent returns to the main loop. */
export interface SubagentOutcome {
  agent: string;
  answer: string;
  rounds: number;
  toolsUsed: string[];
  refused: string[];
  status: "done" | "rounds_exceeded" | "error";
}

/** Runs a sub-agent's mini loop. */
export interface SubagentRunner {
  run(input: {
    agent: "research" | "analysis" | "trading";
    task: string;
    context: string;
    toolCallId: string;
    signal: AbortSignal;
  }): Promise<SubagentOutcome>;
}
