/**
 * ToolDeps: the ports tool handlers may use, bundled by the session DO's wiring. Each capability adds
 * its port here (market data, memory, portfolio…); handlers never see `Env` or bindings.
 */
import type { BackgroundTasks } from "../ports/background";
import type { Clock } from "../ports/clock";
import type { Screener } from "../ports/screener";
import type { SkillStore } from "../ports/skill-store";
import type { SubagentRunner } from "../ports/subagent";
import type { MarketData } from "../ports/market-data";
import type { PortfolioStore } from "../ports/portfolio-store";
import type { SessionControl } from "../ports/session-control";
import type { TaskReader } from "../ports/task-store";
import type { WebClient } from "../ports/web-client";
import type { Workspace } from "../ports/workspace";

/** Everything a handler can reach. */
export interface ToolDeps {
  clock: Clock;
  tasks: TaskReader;
  session: SessionControl;
  /** Market data (bundled offline data or the live provider chain with the D1 cache). */
  market: MarketData;
  /** The caller's portfolio (scoped by `ToolContext.userId`). */
  portfolio: PortfolioStore;
  /** Background jobs (Queues) and their stored runs. */
  background: BackgroundTasks;
  /** Built-in and the user's own skills. */
  skills: SkillStore;
  /** One request to the public web (`web_fetch`); the adapter enforces the destination policy. */
  web: WebClient;
  /** The user's file workspace (`read_file`, `write_file`, `list_files`). */
  files: Workspace;
  /** The screening funnel in process (wired for MCP's `run_funnel_simulation`; chat screens in the background). */
  screener?: Screener;
  /** Sub-agents of this turn (set by the runtime; absent inside a sub-agent). */
  subagents?: SubagentRunner;
}

/** Per-call context: who is calling, from which session, and the turn's cancel signal. */
export interface ToolContext {
  sessionId: string;
  userId: string;
  toolCallId: string;
  signal: AbortSignal;
}
