/**
 * The tools' ports wired from the worker's bindings — shared by the session DO's turns and the MCP
 * server, so both run the registry's handlers over the same adapters. Only the session control (and
 * sub-agents, set by the runtime) differ between them.
 */
import { backgroundPortFor } from "../coordinator/tasks-port";
import type { Config } from "../config";
import { DohResolver } from "../http/doh-resolver";
import { FetchWebClient } from "../http/fetch-web-client";
import { createMarketData } from "../market/create-market-data";
import type { SessionControl } from "../ports/session-control";
import type { SkillStore } from "../ports/skill-store";
import { d1Client } from "./d1-client";
import { D1PortfolioStore } from "../storage/portfolio-repo";
import { R2Workspace } from "../storage/r2-workspace";
import { D1SkillRepo } from "../storage/skill-repo";
import { D1TaskRepo } from "../storage/task-repo";
import type { ToolDeps } from "../tools/deps";

/** What differs per caller. */
export interface ToolDepsWiring {
  session: SessionControl;
  /** Reuse an already built skill store (the DO lists skills for its prompt too). */
  skills?: SkillStore;
}

/** Builds the tools' ports over `env`'s bindings with the real `fetch`. */
export function createToolDeps(env: Env, config: Config, wiring: ToolDepsWiring): ToolDeps {
  const realFetch: typeof fetch = (...a) => fetch(...a);
  return {
    skills: wiring.skills ?? new D1SkillRepo(d1Client(env.DB)),
    clock: Date.now,
    tasks: new D1TaskRepo(d1Client(env.DB)),
    session: wiring.session,
    market: createMarketData({ db: env.DB, snapshots: env.SPILLS, config, fetch: realFetch }),
    portfolio: new D1PortfolioStore(d1Client(env.DB)),
    background: backgroundPortFor(env),
    // local mode runs on someone's machine, where fetch reaches its loopback and LAN: resolve names first.
    web: new FetchWebClient({
      fetch: realFetch,
      ...(config.authMode === "local" ? { resolver: new DohResolver({ fetch: realFetch }) } : {}),
    }),
    files: new R2Workspace(env.SPILLS),
  };
}
