/**
 * wyckoff_diagnose's reshaping of an engine analysis: event labels in WyckoffAgent's order, range
 * tests by the engine's touch rule, stage names, confidence taken from the engine's events.
 */
import { describe, expect, it } from "vitest";
import type { Analysis, Bar, Trigger } from "../../../worker/contracts/analysis";
import { diagnoseView, eventLabel, rangeTests } from "../../../worker/tools/handlers/wyckoff-diagnose";

const trig = (type: Trigger["type"], status: Trigger["status"] = "pending"): Trigger => ({
  type,
  date: "2026-11-20",
  status,
  reasons: [`${type} reason`],
});

function analysis(over: Partial<Analysis> = {}): Analysis {
  return {
    symbol: "SIM.0001",
    asOf: "2026-11-27",
    phase: { name: "ACC_C", since: "2026-10-01" },
    tradingRange: { support: 10, resistance: 12, from: "2026-11-02", to: "2026-11-06", quality: 0.7, mode: "pivot" },
    events: [],
    triggers: [],
    health: {
      score: 61,
      grade: "warning",
      reasons: [],
      components: { structure: 0, events: 0, effortResult: 0, relativeStrength: 0, trend: 0, penalties: 0 },
    },
    stops: { structural: 9.3, trailing: null, atr: null, reasons: [] },
    targets: { pointAndFigure: null, measuredMove: null },
    indicators: {
      close: 11,
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

const bar = (date: string, low: number, high: number, close: number): Bar => ({
  date,
  open: close,
  high,
  low,
  close,
  volume: 1000,
});

describe("wyckoff_diagnose view", () => {
  it("labels events in WyckoffAgent's order from the live triggers; expired ones do not count", () => {
    const a = (triggers: Trigger[], name: Analysis["phase"]["name"] = "ACC_C") =>
      eventLabel({ triggers, phase: { name, since: null } }, name === "MARKUP");
    expect(a([trig("sos")], "MARKUP")).toBe("right_side_ignition");
    expect(a([trig("sos")])).toBe("sos_watch");
    expect(a([trig("spring"), trig("lps")])).toBe("accumulation_repair_resonance");
    expect(a([trig("spring"), trig("evr")])).toBe("accumulation_repair_resonance");
    expect(a([trig("spring")])).toBe("spring_reclaim");
    expect(a([trig("lps")])).toBe("lps_pullback_confirm");
    expect(a([trig("evr")])).toBe("volume_absorption");
    expect(a([trig("spring", "expired")])).toBe("wyckoff_watch");
    expect(a([trig("compression")])).toBe("wyckoff_watch");
  });

  it("counts range tests between the range's dates by the 3.5% touch rule, closes inside the bands only", () => {
    const range = analysis().tradingRange;
    if (!range) throw new Error("fixture has a range");
    const bars = [
      bar("2026-11-01", 9.9, 10.5, 10.2), // before the range: not counted
      bar("2026-11-02", 10.3, 10.8, 10.5), // low within 3.5% of 10: a support test
      bar("2026-11-03", 10.6, 11.7, 11.5), // high within 3.5% of 12: a resistance test
      bar("2026-11-04", 10.1, 11.6, 11.0), // both
      bar("2026-11-05", 9.0, 9.5, 9.2), // closed below the band: a break, not a test
      bar("2026-11-06", 10.9, 11.2, 11.0), // neither
      bar("2026-11-09", 10.0, 12.0, 11.0), // after the range: not counted
    ];
    expect(rangeTests(bars, range)).toEqual({ support: 2, resistance: 2 });
  });

  it("maps range, stage and event with the engine's event confidence and watch points", () => {
    const a = analysis({
      triggers: [trig("spring", "confirmed"), trig("lps")],
      events: [
        {
          type: "Spring",
          date: "2026-11-19",
          confirmedAt: "2026-11-20",
          price: 9.8,
          volumeRatio: 1.4,
          confidence: 0.81,
          reasons: [],
        },
        {
          type: "LPS",
          date: "2026-11-25",
          confirmedAt: "2026-11-26",
          price: 10.4,
          volumeRatio: 0.5,
          confidence: 0.55,
          reasons: [],
        },
      ],
    });
    const v = diagnoseView(a, [bar("2026-11-02", 10.3, 10.8, 10.5)]);
    expect(v.trading_range).toMatchObject({ support: 10, resistance: 12, mid: 11, width_pct: 20, support_tests: 1 });
    expect(v.stage).toEqual({ phase: "ACC_C", label: "Accum_C", since: "2026-10-01" });
    expect(v.event).toMatchObject({
      event_id: "SIM.0001:2026-11-27:accumulation_repair_resonance",
      label: "accumulation_repair_resonance",
      track: "left_side",
      confidence: 0.81,
    });
    expect(v.event.reasons.join(" ")).toContain("spring confirmed");
    expect(v.event.watch_points).toEqual(
      expect.arrayContaining([
        "support 10: a close below it breaks the range",
        "lps of 2026-11-20 awaits confirmation",
        "structural stop 9.3",
      ]),
    );
  });

  it("no range and no trigger: a watch with the low confidence, a close at resistance reads as markup", () => {
    const none = diagnoseView(analysis({ tradingRange: null, phase: { name: "NONE", since: null } }), []);
    expect(none.trading_range).toBeNull();
    expect(none.stage.label).toBe("Range_watch");
    expect(none.event).toMatchObject({ label: "wyckoff_watch", track: "watch", confidence: 0.2 });
    const out = diagnoseView(
      analysis({ triggers: [trig("sos")], indicators: { ...analysis().indicators, close: 12.5 } }),
      [],
    );
    expect(out.event.label).toBe("right_side_ignition");
    expect(out.event.confidence).toBe(0.45);
  });
});
