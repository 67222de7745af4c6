/**
 * The model's memory pass (PARITY.md §2.3), run only when a model is configured:
 * L1 — `[偏好]`/`[决策]` atoms from the last 40 messages (≤ 300 characters); then, once ≥ 3 L1 atoms
 * exist, L2 `[场景]` scenarios and L3 `[画像]` persona are regenerated from them (the previous
 * model-made layer lines are replaced). Lines go through the never-store rules before they are kept.
 */
import { generateText, type LanguageModel } from "ai";
import type { Logger } from "../../lib/log";
import type { Clock } from "../../ports/clock";
import type { MemoryStore, NewMemory } from "../../ports/memory-store";
import type { MemoryType } from "../../contracts/memory";
import { extractKeywords } from "../../memory/keywords";
import { LAYER_REFRESH_MIN_ATOMS, MAX_LAYER_LINES, parseModelAtoms } from "../../memory/model-atoms";
import { stockCodes } from "../../memory/stock-codes";
import { fromSdkUsage, type UsageSink } from "../usage";

/** Messages the L1 pass reads: the session's last 40. */
export const L1_WINDOW = 40;
/** L1 atoms the layer refresh reads. */
export const LAYER_SOURCE_ATOMS = 30;

const L1_PROMPT = `You maintain an investor's long-term memory. From the conversation below, write only the user's
stable preferences and non-obvious decision logic, one per line, each starting with [偏好] (preference:
style, taboos, habits) or [决策] (decision logic and its reason). At most 300 characters in all. Never write:
which stock was bought or sold, temporary position changes, today's market state, tool-call details.
Write in the user's language. If there is nothing stable, answer NONE.`;

const LAYER_PROMPT = `From these memory atoms of one investor, write at most ${MAX_LAYER_LINES} lines starting with [画像]
(persona: who the investor is and how they decide) and at most ${MAX_LAYER_LINES} lines starting with [场景]
(reusable scenario: a situation and how this investor handles it). One per line, in the atoms' language,
no stock-specific trades, no dates.`;

/** One message of the window. */
export interface PassMessage {
  id: string;
  role: "user" | "assistant" | "system";
  text: string;
}

/** What the pass needs. */
export interface ModelPassDeps {
  store: MemoryStore;
  model: LanguageModel;
  now: Clock;
  log: Logger;
  signal?: AbortSignal;
  /** Receives each model call's usage (counted as purpose `memory`). */
  onUsage?: UsageSink;
}

function toNew(type: MemoryType, content: string, sessionId: string, messageIds: string[]): NewMemory {
  return {
    type,
    content,
    keywords: extractKeywords(content),
    codes: stockCodes(content),
    origin: "model",
    source: { sessionId, messageIds },
  };
}

/** Runs L1 over the window and refreshes L2/L3; returns how many memories were added. Throws on failures. */
export async function modelMemoryPass(
  deps: ModelPassDeps,
  input: { ownerId: string; sessionId: string; messages: readonly PassMessage[] },
): Promise<number> {
  const window = input.messages.slice(-L1_WINDOW).filter((m) => m.role !== "system" && m.text.trim() !== "");
  if (window.length === 0) return 0;
  const transcript = window.map((m) => `${m.role}: ${m.text.slice(0, 2_000)}`).join("\n");
  const l1 = await generateText({
    model: deps.model,
    system: L1_PROMPT,
    prompt: transcript,
    maxOutputTokens: 400,
    ...(deps.signal ? { abortSignal: deps.signal } : {}),
  });
  deps.onUsage?.(fromSdkUsage(l1.totalUsage ?? l1.usage));
  const userIds = window.filter((m) => m.role === "user").map((m) => m.id);
  const atoms = parseModelAtoms(l1.text, ["preference", "decision"]);
  const now = deps.now();
  const added = await deps.store.add(
    input.ownerId,
    atoms.map((a) => toNew(a.type, a.content, input.sessionId, userIds)),
    now,
  );
  let layers = 0;
  const l1Atoms = await deps.store.recent(input.ownerId, ["preference", "decision"], LAYER_SOURCE_ATOMS);
  if (added.length > 0 && l1Atoms.length >= LAYER_REFRESH_MIN_ATOMS) {
    const refresh = await generateText({
      model: deps.model,
      system: LAYER_PROMPT,
      prompt: l1Atoms.map((a) => `[${a.type === "preference" ? "偏好" : "决策"}] ${a.content}`).join("\n"),
      maxOutputTokens: 500,
      ...(deps.signal ? { abortSignal: deps.signal } : {}),
    });
    deps.onUsage?.(fromSdkUsage(refresh.totalUsage ?? refresh.usage));
    const lines = parseModelAtoms(refresh.text, ["scenario", "persona"], MAX_LAYER_LINES);
    if (lines.length > 0) {
      await deps.store.removeByOrigin(input.ownerId, ["scenario", "persona"], "model");
      layers = (
        await deps.store.add(
          input.ownerId,
          lines.map((l) => toNew(l.type, l.content, input.sessionId, userIds)),
          deps.now(),
        )
      ).length;
    }
  }
  await deps.store.prune({ ownerId: input.ownerId, now: deps.now() });
  deps.log.info("memory_model_pass", { sessionId: input.sessionId, atoms: added.length, layers });
  return added.length + layers;
}
