/**
 * Model metadata: context window by model name, overridable by setting; unknown
 * models get a conservative 64K so compaction thresholds are always defined.
 */

/** The window used for unknown models (tokens; "64K" read as 64,000). */
export const DEFAULT_CONTEXT_WINDOW = 64_000;

/** First match wins; sizes as the providers document them (64K = 64,000). */
const WINDOWS: readonly [RegExp, number][] = [
  [/deepseek/i, 64_000],
  [/gemini-?2/i, 1_000_000],
  [/gemini/i, 128_000],
  [/claude/i, 200_000],
  [/qwen-?long/i, 1_000_000],
  [/qwen.*(turbo|plus|max|2\.5|3)/i, 128_000],
  [/qwen/i, 32_000],
  [/kimi|moonshot-v1-128k|moonshot.*k2/i, 128_000],
  [/moonshot-v1-32k/i, 32_000],
  [/moonshot-v1-8k/i, 8_000],
  [/gpt|openai|o[134]\b|o[134]-/i, 128_000],
  [/glm-4/i, 128_000],
];

/** The context window of a model id; `override` (LLM_CONTEXT_WINDOW) wins. */
export function inferContextWindow(modelId: string, override?: number): number {
  if (override !== undefined && override > 0) return override;
  for (const [pattern, tokens] of WINDOWS) if (pattern.test(modelId)) return tokens;
  return DEFAULT_CONTEXT_WINDOW;
}

/** Seed 000: reserve = min(max(16,384, 25% of window), 50% of window). */
export function compactionReserve(window: number): number {
  return Math.min(Math.max(16_384, Math.floor(window * 0.25)), Math.floor(window / 2));
}

/** Compact when the estimate passes window − reserve. */
export function compactionThreshold(window: number): number {
  return window - compactionReserve(window);
}
