/** UI strings: both languages cover the same keys; language from the browser; placeholders; routes. */
import { describe, expect, it } from "vitest";
import { parseRoute } from "../../../web/lib/router";
import { format, langFromLocales, STRINGS } from "../../../web/lib/strings";

describe("strings", () => {
  it("has every key in both languages, with the same placeholders", () => {
    const zhKeys = Object.keys(STRINGS.zh);
    expect(Object.keys(STRINGS.en).toSorted()).toEqual(zhKeys.toSorted());
    for (const key of zhKeys) {
      const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).toSorted();
      expect(holes(STRINGS.en[key as keyof typeof STRINGS.en]), key).toEqual(
        holes(STRINGS.zh[key as keyof typeof STRINGS.zh]),
      );
    }
  });

  it("chooses Chinese for zh-* browsers and English otherwise", () => {
    expect(langFromLocales(["zh-CN", "en"])).toBe("zh");
    expect(langFromLocales(["zh-TW"])).toBe("zh");
    expect(langFromLocales(["en-US", "zh-CN"])).toBe("en");
    expect(langFromLocales(["fr-FR"])).toBe("en");
  });

  it("fills placeholders and leaves unknown ones", () => {
    expect(format("{a} and {b}", { a: 1 })).toBe("1 and {b}");
  });
});

describe("parseRoute", () => {
  it("knows the three pages", () => {
    expect(parseRoute("/")).toEqual({ page: "home" });
    expect(parseRoute("/c/s_abc")).toEqual({ page: "chat", sessionId: "s_abc" });
    expect(parseRoute("/analysis/SH.600519")).toEqual({ page: "analysis", symbol: "SH.600519" });
    expect(parseRoute("/analysis/US.BRK%2FB")).toEqual({ page: "analysis", symbol: "US.BRK/B" });
    expect(parseRoute("/nope/x")).toEqual({ page: "unknown" });
  });
});
