/** The market regime line of a screening, in the reader's language. */
/** The market regime's state as the reader sees it (the engine's states, market-regime.ts). */
const REGIME_TEXT: Record<"zh" | "en", Record<string, string>> = {
  zh: {
    BULL: "牛市",
    NEUTRAL: "中性",
    CAUTION: "谨慎",
    RISK_OFF: "避险",
    CRASH: "崩跌",
    REPAIR: "修复",
    REPAIR_CONFIRMED: "修复确认",
  },
  en: {
    BULL: "bull",
    NEUTRAL: "neutral",
    CAUTION: "caution",
    RISK_OFF: "risk-off",
    CRASH: "crash",
    REPAIR: "repair",
    REPAIR_CONFIRMED: "repair confirmed",
  },
};

/** `state` in the UI's language, prefixed "regime"; an unknown state as it came. */
export function regimeText(state: string, lang: "zh" | "en"): string {
  const word = REGIME_TEXT[lang][state] ?? state;
  return lang === "zh" ? `大盘：${word}` : `regime: ${word}`;
}
