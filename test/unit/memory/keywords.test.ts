import { describe, expect, it } from "vitest";
import { extractKeywords, padTerms, unpadTerms } from "../../../worker/memory/keywords";
import { stockCodes } from "../../../worker/memory/stock-codes";
import { cjkSegments, latinWords } from "../../../worker/memory/terms";

describe("extractKeywords", () => {
  it("ranks CJK bigrams, words and codes by frequency after removing stop words", () => {
    const keywords = extractKeywords("回踩确认很重要，回踩缩量更好。Volume matters; volume confirms 600519.");
    expect(keywords.slice(0, 3)).toEqual(["回踩", "volume", "600519"]);
    expect(keywords).toContain("确认");
    expect(keywords).not.toContain("很重");
    expect(keywords).not.toContain("the");
  });

  it("caps the count", () => {
    expect(extractKeywords("甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥", 5)).toHaveLength(5);
  });

  it("pads terms for the trigram index and reads them back", () => {
    expect(padTerms(["回踩", "volume"])).toBe(" 回踩 volume ");
    expect(padTerms([])).toBe("");
    expect(unpadTerms(" 回踩 volume ")).toEqual(["回踩", "volume"]);
  });
});

describe("terms", () => {
  it("cuts CJK runs at stop words and characters", () => {
    expect(cjkSegments("我喜欢在放量突破的时候买入")).toEqual(["喜欢", "放量突破", "买入"]);
    expect(cjkSegments("这个银行股怎么样")).toEqual(["银行股"]);
  });

  it("keeps Latin words of 3+ characters that are not stop words", () => {
    expect(latinWords("I prefer the Weekly chart of S&P")).toEqual(["weekly", "chart"]);
  });

  it("finds A-share codes and US tickers", () => {
    expect(stockCodes("看 600519、SZ000001、300750.SZ 和 $AAPL 以及 MSFT.US，不是 1234567 或 123456")).toEqual([
      "600519",
      "000001",
      "300750",
      "AAPL",
      "MSFT",
    ]);
  });
});
