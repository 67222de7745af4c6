import { describe, expect, it } from "vitest";
import { extractByRules, extractFromUserTexts, sentencesOf } from "../../../worker/memory/extract-rules";
import { refusalOf } from "../../../worker/memory/never-store";

const turn = (user: string, assistant?: string) =>
  extractByRules({
    sessionId: "s_1",
    user: { id: "m_u", text: user },
    assistant: assistant === undefined ? undefined : { id: "m_a", text: assistant },
  });

describe("extractByRules", () => {
  it("takes preferences and decisions from the user's words in Chinese and English", () => {
    const drafts = turn(
      "我喜欢放量突破后回踩确认再买入。我决定以后只做主升浪。I prefer weekly charts. I've decided to cap each position at 10%.",
    );
    expect(drafts.map((d) => [d.type, d.content])).toEqual([
      ["preference", "我喜欢放量突破后回踩确认再买入。 I prefer weekly charts."],
      ["decision", "我决定以后只做主升浪。 I've decided to cap each position at 10%."],
    ]);
    expect(drafts[0]?.source).toEqual({ sessionId: "s_1", messageIds: ["m_u"] });
    expect(drafts[0]?.origin).toBe("rule");
    expect(drafts[0]?.keywords).toContain("回踩");
  });

  it("takes lessons from the assistant's words only", () => {
    const drafts = turn(
      "看看这只",
      "建议在回踩缩量时再考虑。Keep in mind that volume confirms the breakout. 图形很好。",
    );
    expect(drafts).toEqual([
      expect.objectContaining({
        type: "lesson",
        content: "建议在回踩缩量时再考虑。 Keep in mind that volume confirms the breakout.",
        source: { sessionId: "s_1", messageIds: ["m_a"] },
      }),
    ]);
    expect(turn("建议你多看看。")).toEqual([]);
  });

  it("keeps at most 3 sentences per memory and skips questions", () => {
    const drafts = turn("我喜欢A方案。我喜欢B方案。我喜欢C方案。我喜欢D方案。你喜欢什么？Do you prefer daily charts?");
    expect(drafts).toHaveLength(1);
    expect(drafts[0]?.content).toBe("我喜欢A方案。 我喜欢B方案。 我喜欢C方案。");
  });

  it("drops exact duplicates", () => {
    expect(turn("我喜欢低吸。我喜欢低吸。")[0]?.content).toBe("我喜欢低吸。");
    const flushed = extractFromUserTexts("s_1", [
      { id: "", text: "我喜欢低吸。" },
      { id: "", text: "我喜欢低吸。" },
    ]);
    expect(flushed).toHaveLength(1);
  });

  it("never stores trades, positions, the day's market or tool details", () => {
    const drafts = turn(
      "我决定今天买入600519共100股。我现在持有半仓。今天大盘大跌，我希望明天反弹。我希望你调用 analyze_stock 工具。I decided to buy 200 shares of $AAPL. I hold 300 shares right now.",
    );
    expect(drafts).toEqual([]);
  });
});

describe("refusalOf", () => {
  it("names why a sentence is refused", () => {
    expect(refusalOf("我卖出了000001")).toBe("trade");
    expect(refusalOf("我的持仓成本价是12元")).toBe("position");
    expect(refusalOf("今天指数收盘大涨")).toBe("market_today");
    expect(refusalOf("please run screen_stocks for me")).toBe("tool_detail");
    expect(refusalOf("my api key is sk-abcdefghijkl")).toBe("secret");
    expect(refusalOf("我喜欢放量突破后回踩确认再买入")).toBeNull();
    expect(refusalOf("I prefer to buy pullbacks after a breakout")).toBeNull();
  });
});

describe("sentencesOf", () => {
  it("splits Chinese and English sentences, keeps decimals, drops markdown markers and code", () => {
    expect(sentencesOf("## 要点\n- 仓位控制在3.5成。注意风险！\n```\ncode\n```\nI like it. Really.")).toEqual([
      "仓位控制在3.5成。",
      "注意风险！",
      "I like it.",
      "Really.",
    ]);
  });
});
