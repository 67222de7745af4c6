/** Port: running a focused sub-agent inside the current turn; provided by the runtime. */

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
  /** Runs to the end, or until the turn is cancelled (the runner uses the turn's own signal). */
  run(input: {
    agent: "research" | "analysis" | "trading";
    task: string;
    context: string;
    toolCallId: string;
  }): Promise<SubagentOutcome>;
}
