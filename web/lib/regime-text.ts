/** The market regime line of a screening, in the reader's language (the words: contracts/wyckoff-words.ts). */
import { REGIME_WORDS, wordOf } from "@contracts/wyckoff-words";

/** `state` in the UI's language, prefixed "regime"; an unknown state as it came. */
export function regimeText(state: string, lang: "zh" | "en"): string {
  const word = wordOf(REGIME_WORDS, state, lang);
  return lang === "zh" ? `大盘：${word}` : `regime: ${word}`;
}
