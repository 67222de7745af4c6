/**
 * Everything a turn needs, from the session's profile: the system prompt (stable core, profile lines,
 * skills reminder, matched hints), the visible tools, the request and the ports. The DO supplies its
 * storage callbacks; this module only assembles.
 */
import type { ModelMessage } from "ai";
import type { Config } from "../config";
import type { Logger } from "../lib/log";
import type { SessionControl } from "../ports/session-control";
import { languageOf, languageSignal, type Lang } from "../runtime/errors";
import { resolveProfile, validateProfiles, type EffectiveProfile } from "../runtime/profiles/resolve";
import { buildSystemPrompt, turnContext } from "../runtime/prompts/system";
import type { TurnDeps, TurnRequest } from "../runtime/turn-types";
import { skillsReminder } from "../runtime/skills/skill";
import { lastUserText } from "../runtime/transcript";
import type { unansweredCalls } from "../runtime/turn-replay";
import type { Db } from "../storage/db";
import { d1Client } from "./d1-client";
import { matchHints } from "../lib/match-hints";
import { D1HintRepo, hintsQuery, toHint, type Hint } from "../storage/hint-repo";
import { settingsQuery } from "../storage/model-settings-repo";
import type { StoredSkill } from "../ports/skill-store";
import { R2SpillStore } from "../storage/r2-spill-store";
import { D1SkillRepo, ownSkillsQuery, skillsFrom } from "../storage/skill-repo";
import { MODEL_TOOLS } from "../tools/registry";
import { coalescingD1 } from "./d1-batcher";
import { memoryPorts } from "./session-memory";
import { createToolDeps } from "./tool-deps";
import type { BoundTool } from "../tools/bind";
import type { MemoryRecall, RecalledMemories } from "../ports/memory-recall";
import type { MemoryFlush } from "../ports/memory-flush";
import { userModelChain, userModelChainOf } from "./user-models";

/** The profile definitions checked against the registry (both static: once per isolate). */
let profilesChecked: ReturnType<typeof validateProfiles> | undefined;

/** The effective profile; a broken profile definition falls back to the default, loudly. */
export function effectiveProfile(profile: string | null, log: Logger): EffectiveProfile {
  profilesChecked ??= validateProfiles(new Set(MODEL_TOOLS.map((t) => t.spec.name)));
  const checked = profilesChecked;
  if (!checked.ok) {
    log.error("profiles_invalid", { message: checked.error.message });
    return resolveProfile(null);
  }
  return resolveProfile(profile);
}

/** Each profile's tool list, built once, so the runtime's schema conversion (cached per list) runs once. */
const toolsByProfile = new Map<string, readonly BoundTool[]>();

/** The profile's tools in the profile's order, plus execute_skill (skills work in every profile). */
function profileTools(profile: EffectiveProfile): readonly BoundTool[] {
  if (!profile.tools) return MODEL_TOOLS;
  const key = profile.tools.join(",");
  let tools = toolsByProfile.get(key);
  if (!tools) {
    tools = [...profile.tools, "execute_skill"].flatMap((name) => MODEL_TOOLS.filter((t) => t.spec.name === name));
    toolsByProfile.set(key, tools);
  }
  return tools;
}

/**
 * The memory port with this turn's recall already started (it needs only the person and the
 * question), so it runs beside the set-up's D1 reads instead of after them; the runtime's call with
 * the same question takes it, any other call recalls afresh.
 */
function withRecallStarted(
  memory: MemoryRecall,
  first: { userId: string; sessionId: string; text: string },
): MemoryRecall {
  let started: Promise<RecalledMemories | null> | undefined = memory.recall(first);
  started.catch(() => {}); // observed by the runtime's call; never an unhandled rejection here
  return {
    recall(input) {
      const mine = started;
      started = undefined;
      return mine && input.userId === first.userId && input.sessionId === first.sessionId && input.text === first.text
        ? mine
        : memory.recall(input);
    },
  };
}

/**
 * The set-up's D1 reads — the user's skills, the hints, their model settings — as one D1 batch: D1
 * answers a worker's requests one at a time, so three concurrent reads cost three round trips and a
 * batch one (with the recall's batch beside it, two before the model call instead of four). Should
 * the batch fail, each read runs alone as before: skills and hints degrade to none (logged), a
 * failing settings read fails the turn.
 */
async function setUpReads(
  o: Pick<TurnSetupInput, "env" | "config" | "log" | "userId">,
  db: Db,
  skills: D1SkillRepo,
): Promise<[StoredSkill[], Hint[], Awaited<ReturnType<typeof userModelChain>>]> {
  // The user's own model (Settings → Model) or the deployment's default; sub-agents and pipeline
  // steps run on this chain too.
  let read;
  try {
    read = await db.batch([ownSkillsQuery(db, o.userId), hintsQuery(db, o.userId), settingsQuery(db, o.userId)]);
  } catch (error) {
    o.log.warn("setup_batch_failed", { error });
    return Promise.all([
      skills.list(o.userId).catch((e: unknown) => (o.log.warn("skills_unavailable", { error: e }), [])),
      new D1HintRepo(db).list(o.userId).catch((e: unknown) => (o.log.warn("hints_unavailable", { error: e }), [])),
      userModelChain(o.env.DB, o.config, o.userId, o.log),
    ]);
  }
  const [own, hintRows, settings] = read;
  return [skillsFrom(own), hintRows.map(toHint), await userModelChainOf(settings[0] ?? null, o.config, o.log)];
}

type SetUpReads = Awaited<ReturnType<typeof setUpReads>>;

/**
 * A turn's set-up D1 work started ahead: the reads' batch and the memory recall, sent in the tick
 * the caller chooses (the session DO sends them beside the rate limit's take, before the turn
 * opens: one D1 round trip in all). `settle(true)` when the turn opened with it lets the recall's
 * deferred `last_hit_at` write go; `settle(false)` drops it (refused, or set up afresh).
 */
export interface EarlySetUp {
  sessionId: string;
  userId: string;
  profile: string | null;
  question: string;
  reads: Promise<SetUpReads>;
  memory: MemoryRecall;
  memoryFlush: MemoryFlush;
  settle(opened: boolean): void;
}

/** Starts a turn's set-up reads and (when the turn recalls) its memory recall through `d1`. */
export function startSetUp(o: {
  env: Env;
  config: Config;
  log: Logger;
  sessionId: string;
  userId: string;
  profile: string | null;
  question: string;
  /** The database the batches go through (a `coalescingD1`, to share their round trip). */
  d1: D1Database;
  /** Whether the turn recalls (a new turn with a question, never on resume, never in a pipeline). */
  recalls: boolean;
  waitUntil: (work: Promise<unknown>) => void;
}): EarlySetUp {
  let settle: (opened: boolean) => void = () => {};
  const opened = new Promise<boolean>((resolve) => (settle = resolve));
  const ports = memoryPorts(o.env.DB, o.log, o.waitUntil, o.d1, opened);
  const recalls = o.recalls && effectiveProfile(o.profile, o.log).runtime !== "pipeline";
  const memory = recalls
    ? withRecallStarted(ports.memory, { userId: o.userId, sessionId: o.sessionId, text: o.question })
    : ports.memory;
  const reads = setUpReads(o, d1Client(o.d1), new D1SkillRepo(d1Client(o.env.DB)));
  reads.catch(() => {}); // observed by the set-up that takes it; a discarded one fails nobody
  return {
    sessionId: o.sessionId,
    userId: o.userId,
    profile: o.profile,
    question: o.question,
    reads,
    memory,
    memoryFlush: ports.memoryFlush,
    settle,
  };
}

/** What the DO hands over to set a turn up. */
export interface TurnSetupInput {
  env: Env;
  config: Config;
  log: Logger;
  sessionId: string;
  userId: string;
  profile: string | null;
  turn: { id: string; assistantMessageId: string; lang: string };
  transcript: { history: ModelMessage[]; summary?: { text: string; coveredCount: number } };
  signal: AbortSignal;
  resume: ReturnType<typeof unansweredCalls> | undefined;
  /** Set-up work started before the turn opened (used when it was started for this very turn). */
  early?: EarlySetUp | undefined;
  /** The DO's side of the turn: storage, streaming, approvals, tracing. */
  host: Pick<TurnDeps, "gate" | "emit" | "onMessages" | "onCompaction" | "trace" | "now" | "newId" | "sleep"> & {
    session: SessionControl;
    waitUntil: (work: Promise<unknown>) => void;
  };
}

/** The request, the ports and the profile of a turn. */
export async function setUpTurn(
  o: TurnSetupInput,
): Promise<{ req: TurnRequest; deps: TurnDeps; profile: EffectiveProfile }> {
  const profile = effectiveProfile(o.profile, o.log);
  const db = d1Client(o.env.DB);
  const skills = new D1SkillRepo(db);
  const question = lastUserText(o.transcript.history);
  const mine =
    o.early &&
    !o.resume &&
    o.early.sessionId === o.sessionId &&
    o.early.userId === o.userId &&
    o.early.profile === o.profile &&
    o.early.question === question
      ? o.early
      : undefined;
  if (o.early && !mine) o.early.settle(false);
  // Else the recall's batch and the set-up reads' batch leave now, in one D1 round trip (d1-batcher.ts).
  const early =
    mine ??
    startSetUp({
      ...o,
      question,
      d1: coalescingD1(o.env.DB),
      // The loop recalls for a new turn with a question (never on resume, never in a pipeline).
      recalls: !o.resume && o.transcript.history.some((m) => m.role === "user"),
      waitUntil: o.host.waitUntil,
    });
  early.settle(true);
  const { memory, memoryFlush } = early;
  const [skillList, hints, chain] = await early.reads;
  const system = buildSystemPrompt({ profilePrompt: profile.prompt, skillsReminder: skillsReminder(skillList) });
  // When the turn's language is not the one its text shows (a bare `/screen` sent from the Chinese
  // room; a task's English notice in a Chinese conversation), the model is told; otherwise the text
  // itself shows the language.
  const statedLang =
    o.turn.lang !== (languageSignal(question) ?? languageOf(question)) ? (o.turn.lang as Lang) : undefined;
  const context = turnContext({
    now: o.host.now(),
    hints: matchHints(hints, question).map((h) => h.text),
    ...(statedLang ? { statedLang } : {}),
  });
  const tools = profileTools(profile);
  const req: TurnRequest = {
    sessionId: o.sessionId,
    turnId: o.turn.id,
    userId: o.userId,
    messageId: o.turn.assistantMessageId,
    system,
    context,
    ...o.transcript,
    lang: o.turn.lang as Lang,
    signal: o.signal,
    limits: {
      chunkIdleMs: o.config.idleTimeoutMs,
      turnMs: profile.capability ? profile.timeoutMs : o.config.turnTimeoutMs,
      maxRounds: profile.maxRounds,
      ...(chain.contextWindowOverride ? { contextWindow: chain.contextWindowOverride } : {}),
    },
    ...(o.resume ? { resume: o.resume } : { started: true }),
  };
  const { session, waitUntil: _deferred, ...host } = o.host;
  const deps: TurnDeps = {
    ...host,
    models: chain.models,
    tools,
    allTools: MODEL_TOOLS,
    toolDeps: createToolDeps(o.env, o.config, { session, skills }),
    memory,
    memoryFlush,
    spills: new R2SpillStore(o.env.SPILLS),
    priceOf: (modelId) => o.config.prices[modelId] ?? o.config.prices["*"],
    log: o.log,
  };
  return { req, deps, profile };
}
