/**
 * Health reasons in the UI language. The engine writes each reason from a fixed template
 * (`worker/engine/health.ts`: "+12 Spring confirmed (tested or #3)", "−15 upthrust in the last 60
 * bars", "capped at 50: market regime RISK_OFF"); this table maps every template onto Chinese, keeping
 * the numbers. An unknown reason is shown as it came (English), never dropped.
 */
import { REGIME_WORDS, wordOf } from "./wyckoff-words";

/** A UI language. */
type Lang = "zh" | "en";

type Rule = [RegExp, (m: RegExpMatchArray) => string];

const ZH: Rule[] = [
  [/^trading range quality (\S+)$/, (m) => `交易区间质量 ${m[1]}`],
  [/^phase (\S+)$/, (m) => `阶段 ${m[1]}`],
  [/^Spring confirmed \(tested or #3\)$/, () => "弹簧已确认（经过测试或 #3）"],
  [/^secondary test held$/, () => "二次测试守住"],
  [/^sign of strength$/, () => "强势信号（SOS）"],
  [/^last point of support confirmed$/, () => "最后支撑点（LPS）已确认"],
  [/^volume dried up \((\S+)×\)$/, (m) => `成交量萎缩（${m[1]}×）`],
  [/^up-day volume (\S+)× down-day volume$/, (m) => `上涨日成交量是下跌日的 ${m[1]} 倍`],
  [/^absorption in the lower half of the range$/, () => "区间下半部出现吸收"],
  [/^Mansfield RS above zero$/, () => "Mansfield 相对强度高于零"],
  [/^beat the benchmark by ≥ 2% over 10 days$/, () => "10 日跑赢基准 ≥ 2%"],
  [/^RPS120 (\S+)$/, (m) => `RPS120 为 ${m[1]}`],
  [/^held up on most benchmark down days$/, () => "基准下跌日大多抗跌"],
  [/^close above MA50$/, () => "收盘价高于 MA50"],
  [/^MA50 rising$/, () => "MA50 向上"],
  [/^not overextended above MA200$/, () => "相对 MA200 未过度偏离"],
  [/^near the base or above resistance$/, () => "接近底部或已突破阻力"],
  [/^upthrust in the last 60 bars$/, () => "近 60 根 K 线内出现上冲（UT）"],
  [/^sign of weakness in the last 60 bars$/, () => "近 60 根 K 线内出现弱势信号（SOW）"],
  [/^failed Spring$/, () => "弹簧失败"],
  [/^buying climax within 20 bars$/, () => "近 20 根 K 线内出现抢购高潮（BC）"],
  [/^capped at 50: market regime (\S+)$/, (m) => `上限 50 分：市场状态${wordOf(REGIME_WORDS, m[1], "zh")}`],
  [/^entries blocked in regime (\S+)$/, (m) => `市场状态为${wordOf(REGIME_WORDS, m[1], "zh")}，暂停开仓`],
];

/** One reason in `lang` (the points prefix kept: "+12 弹簧已确认…"). */
export function reasonText(reason: string, lang: Lang): string {
  if (lang !== "zh") return reason;
  const points = reason.match(/^([+−-]\d+(?:\.\d+)?)\s+(.*)$/);
  const body = points?.[2] ?? reason;
  for (const [re, out] of ZH) {
    const m = body.match(re);
    if (m) return points ? `${points[1]} ${out(m)}` : out(m);
  }
  return reason;
}

const STRUCTURE_ZH: Readonly<Record<string, string>> = { bull: "多头", bear: "空头", transition: "过渡" };

/** The regime's reasons (`engine/market-regime.ts`), each from a fixed template. */
const REGIME_ZH: Rule[] = [
  [/^not enough index history$/, () => "指数历史不足"],
  [/^index structure (\S+)$/, (m) => `指数结构${STRUCTURE_ZH[m[1] ?? ""] ?? m[1]}`],
  [
    /^breadth (\S+)% above MA20 \(change (\S+)pp\)$/,
    (m) => `市场宽度：${m[1]}% 的股票在 MA20 之上（变化 ${m[2]} 个百分点）`,
  ],
  [/^bull structure without broad participation$/, () => "多头结构但参与面不广"],
  [/^broad rebound without a bull structure$/, () => "普遍反弹但没有多头结构"],
  [/^panic: index (\S+)% on the day$/, (m) => `恐慌：指数当日 ${m[1]}%`],
  [/^rebound the day after a crash$/, () => "崩跌次日反弹"],
  [/^second day of repair held$/, () => "修复第二日守住"],
];

/** A market-regime reason in `lang`; an unknown one as it came. */
export function regimeReasonText(reason: string, lang: Lang): string {
  if (lang !== "zh") return reason;
  for (const [re, out] of REGIME_ZH) {
    const m = reason.match(re);
    if (m) return out(m);
  }
  return reason;
}

/** The regime's index structure (BULL / BEAR / TRANSITION) in `lang`. */
export function structureText(structure: string, lang: Lang): string {
  const word = STRUCTURE_ZH[structure.toLowerCase()];
  return lang === "zh" && word ? word : structure.toLowerCase();
}
