/**
 * The engine's enum words as a reader sees them, in zh and en: market regime states
 * (`engine/market-regime.ts`), L4 trigger kinds and their confirmation states, the L5 verdict, stop
 * and target kinds, event variants (`contracts/analysis.ts`, `contracts/screening.ts`) and the
 * market-data source names. One table for the reading room and the offline model's answers, so a
 * Chinese answer never shows `lps (confirmed)`, `entry` or `数据来源：offline`. The Wyckoff event abbreviations themselves (SC, AR, ST, SOS…) are the
 * method's own names in both languages and stay as they are. An unknown word is shown as it came.
 */

/** A UI language. */
type Lang = "zh" | "en";

type Words = Readonly<Record<string, { zh: string; en: string }>>;

/** Market regime states. */
export const REGIME_WORDS: Words = {
  BULL: { zh: "牛市", en: "bull" },
  NEUTRAL: { zh: "中性", en: "neutral" },
  CAUTION: { zh: "谨慎", en: "caution" },
  RISK_OFF: { zh: "避险", en: "risk-off" },
  CRASH: { zh: "崩跌", en: "crash" },
  REPAIR: { zh: "修复", en: "repair" },
  REPAIR_CONFIRMED: { zh: "修复确认", en: "repair confirmed" },
};

/** L4 trigger kinds (`TriggerType`). */
export const TRIGGER_WORDS: Words = {
  spring: { zh: "弹簧（Spring）", en: "Spring" },
  sos: { zh: "强势信号（SOS）", en: "SOS" },
  lps: { zh: "最后支撑点（LPS）", en: "LPS" },
  evr: { zh: "量价背离（EVR）", en: "effort vs result (EVR)" },
  compression: { zh: "波动收敛", en: "volatility compression" },
  trend_pullback: { zh: "趋势回踩", en: "trend pull-back" },
};

/** A trigger's confirmation state (`TriggerStatus`). */
export const TRIGGER_STATUS_WORDS: Words = {
  pending: { zh: "待确认", en: "pending" },
  confirmed: { zh: "已确认", en: "confirmed" },
  expired: { zh: "已失效", en: "expired" },
};

/** The L5 verdict of a screening candidate. */
export const VERDICT_WORDS: Words = {
  entry: { zh: "可入场", en: "entry" },
  watch: { zh: "观察", en: "watch" },
};

/** Stop kinds (`Stops`) and target kinds (`Targets`). */
export const LEVEL_WORDS: Words = {
  structural: { zh: "结构止损", en: "structural" },
  trailing: { zh: "跟踪止损", en: "trailing" },
  atr: { zh: "ATR 止损", en: "ATR" },
  measuredMove: { zh: "等幅测算", en: "measured move" },
};

/** Event variants (`WyckoffEvent.variant`); Spring's "#1"… stay as written. */
export const VARIANT_WORDS: Words = {
  JAC: { zh: "跃过小溪（JAC）", en: "JAC" },
  strong: { zh: "强势", en: "strong" },
  exit: { zh: "离开区间", en: "exit" },
  markup: { zh: "上涨段", en: "markup" },
  markdown: { zh: "下跌段", en: "markdown" },
  absorption: { zh: "吸收", en: "absorption" },
  supply: { zh: "供应", en: "supply" },
  down: { zh: "向下", en: "down" },
  weakClose: { zh: "弱收", en: "weak close" },
  undercut: { zh: "下破后收回", en: "undercut" },
  afterSpring: { zh: "弹簧之后", en: "after the Spring" },
};

/** Market-data sources (`SourceName` in `contracts/market.ts`), as a provenance line names them. */
export const SOURCE_WORDS: Words = {
  eastmoney: { zh: "东方财富", en: "Eastmoney" },
  tencent: { zh: "腾讯财经", en: "Tencent Finance" },
  yahoo: { zh: "雅虎财经", en: "Yahoo Finance" },
  cache: { zh: "本地缓存", en: "local cache" },
  offline: { zh: "离线数据包", en: "offline bundle" },
};

/** The side of a structure's phase (ACC_x, DIST_x); the reading room's chart labels use it too. */
export const PHASE_SIDE_WORDS: Words = {
  ACC: { zh: "吸筹", en: "accumulation" },
  DIST: { zh: "派发", en: "distribution" },
};

/** A phase name (`PhaseName`: ACC_C, MARKUP, NONE…) in words: "吸筹 C 阶段" / "accumulation phase C". */
export function phaseWords(name: unknown, lang: Lang): string {
  const n = String(name ?? "");
  const [kind, letter] = n.split("_");
  const whole: Record<string, { zh: string; en: string }> = {
    NONE: { zh: "无进行中的结构", en: "no structure open" },
    MARKUP: { zh: "上涨段", en: "markup" },
    MARKDOWN: { zh: "下跌段", en: "markdown" },
  };
  const w = whole[n];
  if (w) return w[lang];
  const s = PHASE_SIDE_WORDS[kind ?? ""];
  if (s && letter) return lang === "zh" ? `${s.zh} ${letter} 阶段` : `${s.en} phase ${letter}`;
  return n;
}

/** `key` from `words` in `lang`; an unknown key as it came. */
export function wordOf(words: Words, key: unknown, lang: Lang): string {
  const k = typeof key === "string" ? key : String(key ?? "");
  return words[k]?.[lang] ?? k;
}
