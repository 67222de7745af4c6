/**
 * What the offline bundle holds, said in Chinese and English: the `not_found` answers of offline
 * market look-ups name it, so a person (or the model) can pick something that exists.
 */
import { err } from "../../lib/result";
import { REAL_CN } from "./real-cn";

const list = (kind: "index" | "stock", lang: "zh" | "en") =>
  REAL_CN.filter((m) => m.kind === kind)
    .map((m) => (lang === "zh" ? `${m.name} ${m.id}` : `${m.nameEn} ${m.id}`))
    .join(lang === "zh" ? "、" : ", ");

/** One sentence per language naming everything in the bundle. */
export function bundleHoldings(): { zh: string; en: string } {
  return {
    zh: `离线数据包含：真实 A 股指数 ${list("index", "zh")}；真实 A 股个股 ${list("stock", "zh")}（日线至 2024-09-19，未复权）；标普500 US.SPX（2000–2020）；以及模拟市场 SIM.0001–SIM.0300 与指数 SIM.IDX1/SIM.IDX2（模拟数据，非真实行情）。`,
    en: `The offline bundle holds: real A-share indices ${list("index", "en")}; real A-share stocks ${list("stock", "en")} (daily bars to 2024-09-19, unadjusted); the S&P 500 US.SPX (2000–2020); and the simulated market SIM.0001–SIM.0300 with indices SIM.IDX1/SIM.IDX2 (simulated, not real).`,
  };
}

/** Symbols worth suggesting instead (real first). */
export const BUNDLE_EXPLORE = ["SH.000001", "SZ.399006", "SH.600000", "US.SPX", "SIM.0001"];

/** `not_found` for a symbol the offline bundle does not carry, in both languages (`details.messages`). */
export function offlineMiss(id: string, name?: string) {
  const label = name && name !== id ? `${id} (${name})` : id;
  const holds = bundleHoldings();
  const messages = {
    zh: `离线模式下没有 ${label} 的数据。${holds.zh}可按名称、代码或拼音搜索；设置 MARKET_DATA=live 可查询其他真实股票。`,
    en: `No offline data for ${label}. ${holds.en} Search them by name, code or pinyin; set MARKET_DATA=live for other real symbols.`,
  };
  return err("not_found", messages.en, { symbol: id, offline: true, explore: BUNDLE_EXPLORE, messages });
}

/** `not_found` for a name or code that matches nothing, in both languages. */
export function noMatch(input: string, offline: boolean) {
  const holds = bundleHoldings();
  const messages = {
    zh: `没有与“${input}”匹配的股票。试试代码（600000、000001、SIM.0001）或其他名称。${offline ? holds.zh : ""}`,
    en: `No symbol matches "${input}". Try a code (600000, 000001, SIM.0001) or another name.${offline ? ` ${holds.en}` : ""}`,
  };
  return err("not_found", messages.en, {
    symbol: input,
    ...(offline ? { offline: true, explore: BUNDLE_EXPLORE } : {}),
    messages,
  });
}
