/**
 * The session Durable Object's side of its turns (`TurnHost`): streaming through its hub, keep-alive,
 * traces, turn set-up over the bindings, and the after-turn work — usage into D1, the audit seal,
 * long-term memory. Built once per DO instance from what the DO owns.
 */
import { eq } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { loadConfig } from "../config";
import { newId } from "../http/secrets";
import type { Logger } from "../lib/log";
import type { SessionControl } from "../ports/session-control";
import type { TurnHost } from "../runtime/turn-host";
import { d1Client } from "./d1-client";
import { D1SessionIndex } from "../storage/session-index-repo";
import type { AuditLog } from "./audit-log";
import * as schema from "./schema";
import type { SessionStore } from "./session-store";
import { learnFromTurn } from "./session-memory";
import type { TraceWriter } from "./trace-writer";
import { sseFrame, type TurnHub } from "./turn-hub";
import { setUpTurn, type EarlySetUp } from "./turn-setup";
import { recordUsage } from "./usage-recorder";

/** The settings that shape an answer, recorded in audit entries (never secrets or keys). */
function auditSettings(env: Env, profile: string | null): Record<string, unknown> {
  try {
    const c = loadConfig(env);
    return {
      profile,
      offline: c.model === undefined,
      fallbackModel: c.fallbackModel?.model ?? null,
      contextWindow: c.contextWindowOverride ?? null,
      marketData: c.marketData,
      idleTimeoutMs: c.idleTimeoutMs,
      turnTimeoutMs: c.turnTimeoutMs,
    };
  } catch {
    return { profile };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** What the DO owns that its turns use. */
export interface SessionTurnHostDeps {
  env: Env;
  ctx: DurableObjectState;
  db: DrizzleSqliteDODatabase<typeof schema>;
  store: SessionStore;
  hub: TurnHub;
  log: Logger;
  traces: TraceWriter;
  audit: AuditLog;
  /** Holds the DO awake while a turn works (agents' `keepAlive`). */
  keepAlive(): Promise<() => void>;
  /** Wakes parked `watchTurn` long-polls (the turn state may have changed). */
  wakeWatchers(): void;
  /** Takes the set-up work `startTurn` started for the turn being opened, if any. */
  takeEarly(): EarlySetUp | undefined;
}

function sessionControl(d: SessionTurnHostDeps, sessionId: string): SessionControl {
  return {
    rename: async (title) => {
      d.store.setTitle(title);
      await new D1SessionIndex(d1Client(d.env.DB)).touch(sessionId, Date.now(), title);
      return { title };
    },
  };
}

/** The DO's side of its turns: streaming, keep-alive, traces, set-up over the bindings, after-turn work. */
export function sessionTurnHost(d: SessionTurnHostDeps): TurnHost {
  const { env, ctx, hub, log } = d;
  return {
    log,
    now: Date.now,
    newId,
    broadcast: (events) => {
      hub.broadcast(events.map((e) => sseFrame(e.idx, e.chunk)).join(""));
      d.wakeWatchers();
    },
    subscribe: () => hub.subscribe([], true),
    pauseStreams: () => {
      hub.pause();
      d.wakeWatchers();
    },
    closeStreams: () => {
      hub.close();
      d.wakeWatchers();
    },
    keepAlive: () => d.keepAlive(),
    waitUntil: (work) => ctx.waitUntil(work),
    traces: d.traces,
    setUp: (o) =>
      setUpTurn({
        env,
        config: loadConfig(env),
        log: o.log,
        sessionId: o.sessionId,
        userId: o.userId,
        profile: o.profile,
        turn: o.turn,
        transcript: o.transcript,
        signal: o.signal,
        resume: o.resume,
        early: d.takeEarly(),
        host: {
          ...o.hooks,
          now: Date.now,
          newId: () => newId("a_"),
          sleep,
          session: sessionControl(d, o.sessionId),
          waitUntil: (work) => ctx.waitUntil(work),
        },
      }),
    seal: (o) =>
      d.audit.record({
        sessionId: o.sessionId,
        ownerId: o.ownerId,
        turn: {
          id: o.turnId,
          userMessageId: o.userMessageId,
          startedAt:
            d.db.select().from(schema.turns).where(eq(schema.turns.id, o.turnId)).get()?.startedAt ?? o.endedAt,
        },
        endedAt: o.endedAt,
        status: o.result.status,
        modelId: o.result.modelId,
        usage: { ...o.result.usage },
        settings: auditSettings(env, o.profile),
        chunks: o.chunks,
        view: o.result.view,
      }),
    recordUsage: (ownerId, now, result) => recordUsage(d1Client(env.DB), ownerId, now, result, log),
    learn: (o) =>
      learnFromTurn({
        d1: env.DB,
        sessionDb: d.db,
        config: loadConfig(env),
        log,
        ...o,
        // The memory pass is this session's spending too (D1 has it already).
        onUsage: (entries) => {
          for (const e of entries) d.store.addUsage(e.usage);
        },
      }),
  };
}
