/** Chart overlays are computed from the analysis object alone: markers, TR band, phase spans, price lines. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Analysis } from "@contracts/analysis";
import { describe, expect, it } from "vitest";
import { analysisOf, chartDays } from "../../../web/lib/analysis-of";
import {
  barsAsOf,
  chartOverlays,
  clampRegions,
  phaseLabel,
  phaseSpans,
  variantText,
} from "../../../web/lib/chart-overlays";

function ev(type: Analysis["events"][number]["type"], date: string): Analysis["events"][number] {
  return { type, date, confirmedAt: date, price: 10, volumeRatio: 1.5, confidence: 0.8, reasons: [] };
}

function makeAnalysis(over: Partial<Analysis> = {}): Analysis {
  return {
    symbol: "SIM.0002",
    asOf: "2026-06-30",
    phase: { name: "ACC_D", since: "2026-05-12" },
    tradingRange: { support: 9, resistance: 11, from: "2026-01-02", to: "2026-05-20", quality: 0.8, mode: "event" },
    events: [
      ev("SOS", "2026-05-12"),
      ev("SC", "2026-01-02"),
      ev("ST", "2026-01-16"),
      ev("Spring", "2026-03-09"),
      ev("UTAD", "2026-06-01"),
    ],
    triggers: [],
    health: {
      score: 70,
      grade: "healthy",
      reasons: [],
      components: { structure: 0, events: 0, effortResult: 0, relativeStrength: 0, trend: 0, penalties: 0 },
    },
    stops: { structural: 8.5, trailing: null, atr: 0.3, reasons: [] },
    targets: { pointAndFigure: { conservative: 14, aggressive: null, columns: 5, box: 0.5 }, measuredMove: 13 },
    indicators: {
      close: 12,
      ma20: null,
      ma50: null,
      ma200: null,
      atr14: null,
      atrPct: null,
      rsi14: null,
      volumeRatio: null,
      spreadRatio: null,
      dryUp: null,
      upDownVolume40: null,
      noDemand20: 0,
      noSupply20: 0,
      rs10: null,
      rs3: null,
      mansfield: null,
    },
    ...over,
  };
}

const bars = ["2026-01-02", "2026-01-16", "2026-03-09", "2026-05-12", "2026-06-30"].map((date) => ({ date }));

describe("chartOverlays", () => {
  it("puts a marker on every event whose bar is charted, oldest first, springs below and upthrusts above", () => {
    const { markers } = chartOverlays(makeAnalysis(), bars);
    expect(markers.map((m) => m.type)).toEqual(["SC", "ST", "Spring", "SOS"]); // UTAD's bar is not charted
    expect(markers.find((m) => m.type === "Spring")).toMatchObject({ position: "belowBar", shape: "arrowUp" });
    const dist = chartOverlays(makeAnalysis(), [...bars, { date: "2026-06-01" }]).markers.find(
      (m) => m.type === "UTAD",
    );
    expect(dist).toMatchObject({ position: "aboveBar", shape: "arrowDown" });
  });

  it("draws the trading range as a price box and stops/targets as price lines", () => {
    const { regions, lines } = chartOverlays(makeAnalysis(), bars);
    expect(regions.find((r) => r.label === "TR")).toMatchObject({
      top: 11,
      bottom: 9,
      from: "2026-01-02",
      to: "2026-05-20",
    });
    expect(lines.map((l) => [l.title, l.price])).toEqual([
      ["stop", 8.5],
      ["P&F", 14],
      ["MM", 13],
    ]);
    expect(chartOverlays(makeAnalysis({ tradingRange: null }), bars).regions.some((r) => r.label === "TR")).toBe(false);
  });

  it("says the phase spans, the price lines and event variants in Chinese for the Chinese UI", () => {
    const { regions, lines } = chartOverlays(makeAnalysis(), bars, "zh");
    expect(regions.map((r) => r.label)).toEqual(["吸筹 A", "吸筹 B", "吸筹 C", "吸筹 D", "TR"]);
    expect(lines.map((l) => l.title)).toEqual(["止损", "P&F", "MM"]);
    expect(variantText("exit", "zh")).toBe("离开区间");
    expect(variantText("#3", "zh")).toBe("#3");
    expect(variantText("exit")).toBe("exit");
  });

  it("has a Chinese label for every event variant the engine writes", () => {
    const engine = path.resolve(import.meta.dirname, "../../../worker/engine");
    const variants = new Set<string>();
    for (const file of readdirSync(engine, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts")) continue;
      // both `variant: "x"` in an event literal and `ev.variant = "x"` after it
      for (const m of readFileSync(path.join(engine, file), "utf8").matchAll(/variant(?: *:|\s*=) *"([^"]+)"/g))
        variants.add(m[1] ?? "");
    }
    expect([...variants].sort()).toEqual([
      "absorption",
      "afterSpring",
      "down",
      "exit",
      "markdown",
      "markup",
      "supply",
      "undercut",
      "weakClose",
    ]);
    for (const v of variants) expect(variantText(v, "zh"), v).toMatch(/[\u4e00-\u9fff]/);
    expect(variantText("markup", "zh")).toBe("上涨段");
    expect(variantText("weakClose", "zh")).toBe("弱收");
    expect(variantText("weakClose", "en")).toBe("weak close");
  });
});

describe("phaseSpans", () => {
  it("bounds earlier phases by their events and ends with the engine's current phase exactly", () => {
    expect(phaseSpans(makeAnalysis()).map((r) => [r.label, r.from, r.to])).toEqual([
      ["Acc A", "2026-01-02", "2026-01-16"],
      ["Acc B", "2026-01-16", "2026-03-09"],
      ["Acc C", "2026-03-09", "2026-05-12"],
      ["Acc D", "2026-05-12", "2026-06-30"],
    ]);
  });

  it("draws nothing without a phase", () => {
    expect(phaseSpans(makeAnalysis({ phase: { name: "NONE", since: null } }))).toEqual([]);
  });

  it("labels phases", () => {
    expect(phaseLabel("ACC_C")).toBe("Acc C");
    expect(phaseLabel("DIST_E")).toBe("Dist E");
    expect(phaseLabel("MARKUP")).toBe("Markup");
  });
});

describe("clampRegions / barsAsOf", () => {
  it("clips regions to the charted dates and drops those outside", () => {
    const r = { top: null, bottom: null, label: "x", color: "" };
    expect(
      clampRegions(
        [
          { ...r, from: "2025-01-01", to: "2026-02-01" },
          { ...r, from: "2024-01-01", to: "2024-02-01" },
        ],
        "2026-01-02",
        "2026-06-30",
      ),
    ).toEqual([{ ...r, from: "2026-01-02", to: "2026-02-01" }]);
  });

  it("never charts bars after the analysis' asOf", () => {
    expect(barsAsOf([...bars, { date: "2026-07-01" }], "2026-06-30")).toHaveLength(5);
  });
});

describe("analysisOf", () => {
  it("finds the analysis in an analyze_stock output or as the output itself, and nothing in other outputs", () => {
    const a = makeAnalysis();
    expect(analysisOf({ mode: "diagnose", analysis: a })?.symbol).toBe("SIM.0002");
    expect(analysisOf(a)?.phase.name).toBe("ACC_D");
    expect(analysisOf({ mode: "price", data: [] })).toBeNull();
    expect(analysisOf({ analysis: { phase: "broken" } })).toBeNull();
    expect(analysisOf(null)).toBeNull();
  });

  it("asks for enough bars to show the whole structure", () => {
    expect(chartDays(makeAnalysis())).toBeGreaterThanOrEqual(120);
    expect(chartDays(makeAnalysis({ events: [ev("SC", "2024-06-28")] }))).toBeGreaterThan(400);
  });
});
