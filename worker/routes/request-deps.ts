/**
 * The request's dependencies (edge): the D1 repos and the market-data port a route uses, built from
 * the bindings by one middleware in app.ts and read as `c.var.deps`. Each is made on first use and
 * then kept for the rest of the request, so a route that reads two repos shares one database handle
 * and a request that reads none builds nothing.
 */
import type { Config } from "../config";
import { createMarketData } from "../market/create-market-data";
import type { MarketData } from "../ports/market-data";
import { D1ApiTokens } from "../storage/api-token-repo";
import { D1AuditTombstones } from "../storage/audit-tombstone-repo";
import { createDb, type Db } from "../storage/db";
import { D1HintRepo } from "../storage/hint-repo";
import { memoryStoreOf, type D1MemoryStore } from "../storage/memory-repo";
import { D1ModelSettings } from "../storage/model-settings-repo";
import { D1PortfolioStore } from "../storage/portfolio-repo";
import { D1SessionIndex } from "../storage/session-index-repo";
import { D1Shares } from "../storage/share-repo";
import { D1SkillRepo } from "../storage/skill-repo";
import { D1TaskRepo } from "../storage/task-repo";
import { D1UsageRepo } from "../storage/usage-repo";

/** What a route may use. */
export interface RequestDeps {
  /** Drizzle over the request's D1 database. */
  readonly db: Db;
  readonly sessions: D1SessionIndex;
  readonly tombstones: D1AuditTombstones;
  readonly portfolio: D1PortfolioStore;
  readonly tasks: D1TaskRepo;
  readonly tokens: D1ApiTokens;
  readonly memory: D1MemoryStore;
  readonly shares: D1Shares;
  readonly usage: D1UsageRepo;
  readonly modelSettings: D1ModelSettings;
  readonly skills: D1SkillRepo;
  readonly hints: D1HintRepo;
  /** Market data (one HTTP client, so pacing and circuit breakers hold for the request). */
  readonly market: MarketData;
}

/** Builds the request's dependencies over `d1`; nothing is made until it is first read. */
export function createRequestDeps(d1: D1Database, config: Config, fetchImpl: typeof fetch): RequestDeps {
  const made = new Map<keyof RequestDeps, unknown>();
  const once = <K extends keyof RequestDeps>(key: K, make: () => RequestDeps[K]): RequestDeps[K] => {
    if (!made.has(key)) made.set(key, make());
    return made.get(key) as RequestDeps[K];
  };
  const db = () => once("db", () => createDb(d1));
  return {
    get db() {
      return db();
    },
    get sessions() {
      return once("sessions", () => new D1SessionIndex(db()));
    },
    get tombstones() {
      return once("tombstones", () => new D1AuditTombstones(db()));
    },
    get portfolio() {
      return once("portfolio", () => new D1PortfolioStore(db()));
    },
    get tasks() {
      return once("tasks", () => new D1TaskRepo(db()));
    },
    get tokens() {
      return once("tokens", () => new D1ApiTokens(db()));
    },
    get memory() {
      return once("memory", () => memoryStoreOf(d1));
    },
    get shares() {
      return once("shares", () => new D1Shares(db()));
    },
    get usage() {
      return once("usage", () => new D1UsageRepo(db()));
    },
    get modelSettings() {
      return once("modelSettings", () => new D1ModelSettings(db()));
    },
    get skills() {
      return once("skills", () => new D1SkillRepo(db()));
    },
    get hints() {
      return once("hints", () => new D1HintRepo(db()));
    },
    get market() {
      return once("market", () => createMarketData({ db: d1, config, fetch: fetchImpl }));
    },
  };
}
