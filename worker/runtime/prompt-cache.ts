/**
 * Prompt-cache breakpoints for providers that need them marked (Anthropic): one on the system prompt
 * (it caches the tools and the system prompt, both byte-stable across rounds and turns) and a sliding
 * one on the last message (it caches the conversation so far for the next round). Providers that
 * cache prefixes on their own get the request unchanged.
 */
import type { ModelMessage, SystemModelMessage } from "ai";
import type { NamedModel } from "./model";

const EPHEMERAL = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;

/** The system prompt and messages of a round, with breakpoints where the provider wants them. */
export function withCacheBreakpoints(
  provider: NamedModel["provider"],
  system: string,
  messages: readonly ModelMessage[],
): { system: string | SystemModelMessage; messages: ModelMessage[] } {
  if (provider !== "anthropic") return { system, messages: [...messages] };
  const marked = messages.map((m, i) =>
    i === messages.length - 1 ? ({ ...m, providerOptions: { ...m.providerOptions, ...EPHEMERAL } } as ModelMessage) : m,
  );
  return { system: { role: "system", content: system, providerOptions: EPHEMERAL }, messages: marked };
}
