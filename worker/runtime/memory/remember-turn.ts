/**
 * After a turn (off the answer's path): memories by the keyword rules from the user's words and the
 * assistant's answer, then pruning of the owner's memories. Every few turns, when a model is
 * configured, the model's L1 pass and the L2/L3 layer refresh follow (`model-memory-pass.ts`).
 */
import type { Logger } from "../../lib/log";
import type { Clock } from "../../ports/clock";
import type { MemoryStore } from "../../ports/memory-store";
import { extractByRules, type TurnMessageText } from "../../memory/extract-rules";

/** What the extraction needs. */
export interface RememberDeps {
  store: MemoryStore;
  now: Clock;
  log: Logger;
}

/** The turn to learn from. */
export interface FinishedTurn {
  ownerId: string;
  sessionId: string;
  user: TurnMessageText | undefined;
  assistant: TurnMessageText | undefined;
}

/** Extracts and stores the turn's memories, then prunes; returns the ids added. Throws on store failures. */
export async function rememberTurn(deps: RememberDeps, turn: FinishedTurn): Promise<string[]> {
  const drafts = extractByRules({ sessionId: turn.sessionId, user: turn.user, assistant: turn.assistant });
  if (drafts.length === 0) return [];
  const now = deps.now();
  const added = await deps.store.add(turn.ownerId, drafts, now);
  const pruned = await deps.store.prune({ ownerId: turn.ownerId, now });
  deps.log.info("memory_extracted", { sessionId: turn.sessionId, found: drafts.length, added: added.length, pruned });
  return added;
}
