/**
 * The engine on real daily bars (S&P 500 2000–2020, A-share indices and stocks from hqchart): the
 * behaviours issue 15 asks for, each on real series, none tied to a date or symbol in the engine.
 */
import { describe, expect, it } from "vitest";
import { Analysis, type Bar } from "../../../worker/contracts/analysis";
import { analyze, type AnalyzeResult } from "../../../worker/engine/analyze";
import { indexOnOrAfter, loadRealBars, realMarket } from "../../support/real-bars";

function read(symbol: string, bars: readonly Bar[]): AnalyzeResult {
  const r = analyze(bars, { symbol, market: realMarket(symbol) });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The series from `before` bars before `date` through `after` bars after it. */
function around(symbol: string, date: string, before: number, after: number): Bar[] {
  const all = loadRealBars(symbol);
  const i = indexOnOrAfter(all, date);
  return all.slice(Math.max(0, i - before), Math.min(all.length, i + after + 1));
}

const barsBetween = (bars: readonly Bar[], a: string, b: string): number =>
  Math.abs(indexOnOrAfter(bars, a) - indexOnOrAfter(bars, b));

describe("engine on real markets", () => {
  it("finds selling climaxes that span several sub-2× bars (S&P 500 2008-10, 2020-03)", { timeout: 60_000 }, () => {
    for (const [date, label] of [
      ["2008-10-10", "2008 capitulation"],
      ["2020-03-23", "2020 crash low"],
    ] as const) {
      const bars = around("SPX", date, 600, 15);
      const a = read("SPX", bars);
      const sc = a.events.filter((e) => e.type === "SC" && barsBetween(bars, e.date, date) <= 5);
      expect(sc.length, `${label}: ${a.events.map((e) => `${e.type}@${e.date}`).join(" ")}`).toBeGreaterThan(0);
      // Real climaxes: the heaviest bar of the cluster is below the one-bar rule's 2× threshold or near it.
      expect(sc[0]?.reasons.join(" ")).toMatch(/climax cluster|climactic bar/);
    }
  });

  it(
    "flags a move beyond the price limit as a probable corporate action and never reads it as an event",
    { timeout: 60_000 },
    () => {
      // 600000.sh has unadjusted ex-rights days (−33%, −30%, −26%, −24% on a ±10% board).
      const all = loadRealBars("600000.sh");
      const a = read("600000.sh", all.slice(0, indexOnOrAfter(all, "2012-01-01")));
      const flagged = (a.corporateActions ?? []).map((c) => c.date);
      expect(flagged.length).toBeGreaterThanOrEqual(3);
      for (const c of a.corporateActions ?? []) expect(Math.abs(c.change)).toBeGreaterThan(0.1);
      expect(a.warnings?.some((w) => /probable corporate action/.test(w))).toBe(true);
      for (const e of a.events) expect(flagged, `${e.type} on a corporate-action day`).not.toContain(e.date);
      // Indices never move beyond the limit: nothing flagged on the SSE Composite since 1997 or the S&P 500.
      const sse = loadRealBars("000001.sh");
      const sseRead = read(
        "000001.sh",
        sse.slice(indexOnOrAfter(sse, "1997-01-02"), indexOnOrAfter(sse, "2012-01-01")),
      );
      expect(sseRead.corporateActions).toBeUndefined();
      expect(read("SPX", loadRealBars("SPX")).corporateActions).toBeUndefined();
    },
  );

  it("reads a series without usable volume on price alone, with no volume-based events", { timeout: 60_000 }, () => {
    const real = around("SPX", "2020-03-23", 700, 15);
    expect(read("SPX", real).volume).toBeUndefined();
    for (const volume of [() => 0, () => 1_000_000, (i: number) => (i % 10 === 0 ? 5 : 0)]) {
      const a = read(
        "SPX",
        real.map((b, i) => ({ ...b, volume: volume(i) })),
      );
      expect(a.volume).toBe("absent");
      expect(a.events).toEqual([]);
      expect(a.triggers).toEqual([]);
      expect(a.warnings?.join(" ")).toMatch(/volume is absent/);
      expect(Analysis.safeParse(a).success).toBe(true);
    }
  });

  it("never scores a range highly once price has left it by more than 10%", { timeout: 120_000 }, () => {
    const seen: string[] = [];
    for (const symbol of ["SPX", "000001.sh", "399006.sz"]) {
      const all = loadRealBars(symbol);
      for (let end = 800; end < all.length; end += 61) {
        const a = read(symbol, all.slice(end - 750, end));
        const r = a.tradingRange;
        if (!r) continue;
        const c = a.indicators.close;
        const out = c < r.support * 0.9 || c > r.resistance * 1.1;
        if (out && r.quality >= 0.6)
          seen.push(`${symbol} ${a.asOf} ${r.mode} q ${r.quality} close ${c} [${r.support}, ${r.resistance}]`);
      }
    }
    expect(seen).toEqual([]);
  });

  it(
    "closes structures with an outcome: the S&P 500's 2020 top range ends before the March climax",
    { timeout: 60_000 },
    () => {
      const a = read("SPX", around("SPX", "2020-04-09", 900, 0));
      const ended = (a.structures ?? []).filter((s) => s.to >= "2020-02-19");
      expect(ended.length, JSON.stringify(a.structures)).toBeGreaterThan(0);
      for (const s of ended) expect(["markup", "markdown", "failed", "superseded", "stale"]).toContain(s.outcome);
      expect(a.events.some((e) => e.type === "SC" && e.date >= "2020-03-16" && e.date <= "2020-03-30")).toBe(true);
    },
  );

  it("keeps price / volume scale invariance on real bars", { timeout: 60_000 }, () => {
    const bars = around("000001.sh", "2008-10-28", 700, 60);
    const k = 0.37;
    const m = 40;
    const a = read("000001.sh", bars);
    const b = read(
      "000001.sh",
      bars.map((x) => ({
        ...x,
        open: x.open * k,
        high: x.high * k,
        low: x.low * k,
        close: x.close * k,
        volume: x.volume * m,
      })),
    );
    expect(b.events.map((e) => `${e.type}@${e.date}/${e.confirmedAt}`)).toEqual(
      a.events.map((e) => `${e.type}@${e.date}/${e.confirmedAt}`),
    );
    expect(b.phase).toEqual(a.phase);
  });

  it(
    "is point in time on real bars: a truncated series' events equal the full run's events confirmed by then",
    { timeout: 60_000 },
    () => {
      const bars = around("SPX", "2009-03-06", 700, 120);
      const full = read("SPX", bars);
      for (const cut of [760, 790, 810]) {
        const part = read("SPX", bars.slice(0, cut));
        const last = bars[cut - 1]?.date ?? "";
        const key = (e: { type: string; date: string; confirmedAt: string }) => `${e.type}@${e.date}/${e.confirmedAt}`;
        expect(part.events.map(key)).toEqual(full.events.filter((e) => e.confirmedAt <= last).map(key));
      }
    },
  );
});

describe("a selling climax whose effort lands on the reversal bar (issue 15, climax recall)", () => {
  it(
    "finds the SSE 2018-10-19 low as an SC from the heavy up day after it, only once that day has printed",
    { timeout: 60_000 },
    () => {
      const date = "2018-10-19";
      const bars = around("000001.sh", date, 1000, 15);
      const low = bars[indexOnOrAfter(bars, date)];
      const a = read("000001.sh", bars);
      const sc = a.events.find((e) => e.type === "SC" && barsBetween(bars, e.date, date) <= 2);
      expect(sc, a.events.map((e) => `${e.type}@${e.date}`).join(" ")).toBeDefined();
      expect(sc?.date).toBe(date);
      expect(sc?.price).toBe(low?.low);
      expect(sc?.reasons.join(" ")).toMatch(/the reversal bar after the low/);
      // Without the reversal bar in the episode the low's own cluster is too light: no SC there.
      const r = analyze(bars, { symbol: "000001.sh", market: "CN", params: { clusterAfterBars: 0 } });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.events.some((e) => e.type === "SC" && barsBetween(bars, e.date, date) <= 5)).toBe(false);
      // Point in time: the reading that ends on the low itself has no SC yet (nothing repaints later).
      const upTo = read("000001.sh", bars.slice(0, indexOnOrAfter(bars, date) + 1));
      expect(upTo.events.some((e) => e.type === "SC" && e.date === date)).toBe(false);
    },
  );
});

describe("structure lifecycle and context on real bars (issue 15, second pass)", () => {
  it(
    "ends a range when price leaves it instead of widening it to follow the trend (S&P 500 2018)",
    { timeout: 60_000 },
    () => {
      // The 2018-01 top range (about 2530–2940) must not stretch down to the December low: by the
      // 2018-12-26 low it has ended, and the bottom reads no distribution phase.
      const bars = around("SPX", "2018-12-31", 1000, 0);
      const a = read("SPX", bars);
      expect(a.phase.name, JSON.stringify(a.structures)).not.toMatch(/^DIST/);
      const ended = (a.structures ?? []).filter((st) => st.side === "distribution" && st.from < "2018-06-01");
      expect(ended.length, JSON.stringify(a.structures)).toBeGreaterThan(0);
      for (const st of ended) {
        expect(st.to <= "2018-12-26").toBe(true);
        expect(st.support).toBeGreaterThan(2400);
      }
    },
  );

  it(
    "dates the AR at the reaction's high before the secondary test, not its first leg (S&P 500 2002)",
    { timeout: 60_000 },
    () => {
      // SC 2002-07-24 at 775.7; the rally ran to 965 on 08-22 (a first leg topped at 911 on 07-31)
      // before price came back to test the low in September–October.
      const bars = around("SPX", "2002-10-31", 1000, 0);
      const a = read("SPX", bars);
      const ar = a.events.filter((e) => e.type === "AR" && e.date > "2002-07-24" && e.date < "2002-10-01");
      expect(ar.map((e) => e.date)).toEqual(["2002-08-22"]);
      // Not a markup: the range from the July climax is still the one price tests in October.
      expect((a.structures ?? []).some((st) => st.from === "2002-07-24")).toBe(false);
      expect(a.tradingRange?.resistance).toBeGreaterThan(960);
    },
  );

  it(
    "does not end the AR on a pullback that stays well above the climax low (S&P 500 2011)",
    { timeout: 60_000 },
    () => {
      // SC 2011-08-09 at 1101.5; a first leg topped at 1208.5 on 08-17, the pullback held 1121 (19% of
      // the span above the low, not a test of it) and the reaction ran on to 1230.7 on 08-31.
      const bars = around("SPX", "2011-10-31", 1000, 0);
      const a = read("SPX", bars);
      const ar = a.events.filter((e) => e.type === "AR" && e.date > "2011-08-09" && e.date < "2011-10-01");
      expect(ar.map((e) => e.date)).toEqual(["2011-08-31"]);
    },
  );

  it(
    "fails a narrow range once price closes half its height beyond it, so a later crash is not read inside it (SSE 2007)",
    { timeout: 60_000 },
    () => {
      // BC 2007-05-14 (4081), AR 05-16 (3845): a range 6% tall. Closes of 4272 and 4335 on 05-28/29
      // are more than half its height above it: the distribution failed there, and the crash to 3404
      // on 06-05 (the stamp-duty shakeout, a bottom) is read without a distribution phase.
      const all = loadRealBars("000001.sh");
      for (const d of ["2007-06-08", "2007-06-15", "2007-06-22"]) {
        const i = indexOnOrAfter(all, d);
        const a = read("000001.sh", all.slice(i - 1000, i + 1));
        expect(a.phase.name, d).not.toMatch(/^DIST/);
        const st = (a.structures ?? []).find((x) => x.from === "2007-05-14");
        expect(st, JSON.stringify(a.structures)).toMatchObject({ side: "distribution", outcome: "failed" });
        expect(st && st.to <= "2007-05-29").toBe(true);
      }
    },
  );

  it(
    "reads no selling climax days after a market high, and no markup once the fall is under way (S&P 500 2020-02)",
    { timeout: 60_000 },
    () => {
      const all = loadRealBars("SPX");
      const top = indexOnOrAfter(all, "2020-02-19");
      for (let k = 3; k <= 12; k++) {
        for (const from of [top + k + 1 - 1200, 0]) {
          const a = read("SPX", all.slice(from, top + k + 1));
          expect(a.phase.name, `${all[top + k]?.date}`).not.toMatch(/^(ACC_|MARKUP)/);
          const sc = a.events.filter((e) => e.type === "SC" && e.date > "2020-02-19");
          expect(sc, `${all[top + k]?.date}`).toEqual([]);
        }
      }
    },
  );
});

describe("signs of strength and weakness on real bars", () => {
  it(
    "reads a range left with follow-through as an SOS at the break, with no textbook bar (S&P 500 2003-06)",
    { timeout: 60_000 },
    () => {
      // The accumulation from the 2002-07-24 SC (AR 965 on 2002-08-22) was left upward in June 2003 by a
      // steady rally on ordinary volume (1.13×): the first close above the AR high starts the SOS, and
      // the closes after it confirm it. (The SSE 2009-02 break this test read before now follows an ST
      // on 2008-12-31 and is a textbook SOS on 2009-02-06, asserted in the secondary-test case.)
      const bars = around("SPX", "2003-06-27", 1000, 0);
      const a = read("SPX", bars);
      const sos = a.events.filter((e) => e.type === "SOS" && e.date >= "2003-01-01");
      expect(sos.length, a.events.map((e) => `${e.type}@${e.date}`).join(" ")).toBe(1);
      expect(sos[0]?.variant).toBe("exit");
      expect(barsBetween(bars, sos[0]?.date ?? "", "2003-06-02")).toBeLessThanOrEqual(5);
      expect((sos[0]?.confirmedAt ?? "") > (sos[0]?.date ?? "")).toBe(true);
      const st = (a.structures ?? []).find((x) => x.from === "2002-07-24");
      expect(st?.outcome, JSON.stringify(a.structures)).toBe("markup");
    },
  );
});

describe("secondary tests on real bars", () => {
  it(
    "reads a higher low in the lower part of the range on dry volume as an ST (SSE 2008-12-31)",
    { timeout: 60_000 },
    () => {
      // After the 2008-10-28 SC (1664.9) and the AR, the pullback to 1814.8 on 2008-12-31 came on
      // the driest volume of the range (0.51× the 20-bar average), 9% above the SC low: a test
      // holding well above the climax, not a return to it.
      const bars = around("000001.sh", "2009-01-20", 1000, 0);
      const a = read("000001.sh", bars);
      const trail = a.events.map((e) => `${e.type}@${e.date}`).join(" ");
      const sc = a.events.find((e) => e.type === "SC" && e.date >= "2008-10-01");
      const st = a.events.filter((e) => e.type === "ST" && barsBetween(bars, e.date, "2008-12-31") <= 5);
      expect(st.length, trail).toBe(1);
      expect(st[0]?.price ?? 0).toBeGreaterThan((sc?.price ?? Number.POSITIVE_INFINITY) * 1.05);
      expect(st[0]?.volumeRatio ?? 1).toBeLessThanOrEqual(0.8);
      expect(st[0]?.reasons[0]).toMatch(/^higher low/);
      // Phase B after the test: the break in February is a textbook SOS (wide, heavy, closed high).
      const later = read("000001.sh", around("000001.sh", "2009-02-27", 1000, 0));
      const sos = later.events.filter((e) => e.type === "SOS" && e.date >= "2009-01-01");
      expect(sos.length, later.events.map((e) => `${e.type}@${e.date}`).join(" ")).toBe(1);
      expect(sos[0]?.variant).toBeUndefined();
      expect(barsBetween(bars, sos[0]?.date ?? "", "2009-02-04")).toBeLessThanOrEqual(5);
      // Without the higher-low reading (zone 0) the engine sees only tests at the SC low: none here.
      const off = analyze(bars, { symbol: "000001.sh", market: "CN", params: { stZone: 0 } });
      if (!off.ok) throw new Error(off.error.message);
      expect(off.value.events.filter((e) => e.type === "ST" && barsBetween(bars, e.date, "2008-12-31") <= 5)).toEqual(
        [],
      );
    },
  );
});

describe("phase D prints more than one sign of strength on real bars", () => {
  it(
    "reads a new high on a wide, heavy bar weeks after the SOS as a further SOS (SSE 2006-01)",
    { timeout: 60_000 },
    () => {
      // The accumulation from the 2005-06-06 low (AR 1146.4) broke out on 2005-08-15; on 2006-01-12 a
      // +1.3% bar on 1.32× volume closed at its high (cp 0.97) above the September high 1223.6, the
      // highest high since the breakout: the markup carried on from phase D.
      const bars = around("000001.sh", "2006-02-10", 1000, 0);
      const a = read("000001.sh", bars);
      const sos = a.events.filter((e) => e.type === "SOS" && e.date >= "2005-06-06");
      const trail = a.events.map((e) => `${e.type}${e.variant ? `(${e.variant})` : ""}@${e.date}`).join(" ");
      expect(sos.length, trail).toBe(2);
      const [first, later] = sos;
      expect(later?.variant, trail).toBe("markup");
      expect(later?.confirmedAt).toBe(later?.date);
      expect(barsBetween(bars, later?.date ?? "", "2006-01-19")).toBeLessThanOrEqual(5);
      expect(barsBetween(bars, later?.date ?? "", first?.date ?? "")).toBeGreaterThanOrEqual(10);
      const i0 = indexOnOrAfter(bars, first?.date ?? "");
      const i1 = indexOnOrAfter(bars, later?.date ?? "");
      for (let i = i0; i < i1; i++) expect(bars[i]?.high ?? 0).toBeLessThan(bars[i1]?.high ?? 0);
      // Point in time: the day before, nothing of it is known, and the first SOS reads the same.
      const before = read("000001.sh", bars.slice(0, i1));
      const sosBefore = before.events.filter((e) => e.type === "SOS" && e.date >= "2005-06-06");
      expect(sosBefore.map((e) => e.date)).toEqual([first?.date]);
    },
  );
});

describe("context decides the side on real bars", () => {
  it("reads the 2007 SSE top after a 250% advance as distribution, never re-accumulation", { timeout: 60_000 }, () => {
    // 6124 on 2007-10-16 after +250% from the yearly low; the reaction to 5462 came on lighter volume
    // (a re-accumulation by effort alone) — the extent of the advance says top.
    const all = loadRealBars("000001.sh");
    const top = indexOnOrAfter(all, "2007-10-16");
    for (let k = 3; k <= 15; k++) {
      for (const from of [top + k + 1 - 1200, 0]) {
        const a = read("000001.sh", all.slice(from, top + k + 1));
        expect(a.phase.name, `${all[top + k]?.date}`).not.toMatch(/^ACC_/);
      }
    }
    const a = read("000001.sh", all.slice(top + 16 - 1200, top + 16));
    const bc = a.events.filter((e) => e.type === "BC" && barsBetween(all, e.date, "2007-10-16") <= 5);
    expect(bc.length, a.events.map((e) => `${e.type}@${e.date}`).join(" ")).toBe(1);
    expect(a.phase.name).toMatch(/^DIST_/);
  });

  it(
    "reads no re-accumulation at the S&P 2000-09-01 top, a rally to a 60-bar but not a 120-bar high",
    { timeout: 60_000 },
    () => {
      // 1530.09 on 2000-09-01 was a lower high inside the 2000 topping range (1552.87 on 2000-03-24,
      // 1527.46 on 07-17); the reaction to 1419 on 09-27 came after a rally that made only a 60-bar high.
      // With a 60-bar context test the engine opened a re-accumulation (ACC_A) there on every reading
      // 3–15 bars after the top (13 wrong-side phases); a half-year high is required now.
      const all = loadRealBars("SPX");
      const top = indexOnOrAfter(all, "2000-09-01");
      const phases: string[] = [];
      for (let k = 3; k <= 15; k++) phases.push(read("SPX", all.slice(0, top + k + 1)).phase.name);
      expect(
        phases.filter((ph) => /^ACC_|^MARKUP$/.test(ph)),
        phases.join(" "),
      ).toEqual([]);
    },
  );
});

describe("one reading per date (history-length invariance on real series)", () => {
  /**
   * 20 dates (10 on the S&P 500, 10 on the SSE Composite, evenly spread after 1,100 bars) read with
   * 500, 1,000 and all bars before them. Measured today: phase and the events confirmed in the last
   * 250 bars agree across all three windows on 18 of 20 dates (17 before a range failed at half its
   * height beyond it, 14 before ranges stopped widening to
   * follow a trend; 18 before range exits were dated as SOS/SOW, whose date after a 250-bar warm-up
   * can still depend on a band set a year earlier), and between 1,000 bars and all bars on 20 of 20 —
   * the issue's goal (20 of 20 for all three) is not met yet; these floors only rise.
   */
  it("gives the same phase and recent events whatever the history length, on most dates", { timeout: 120_000 }, () => {
    let allThree = 0;
    let longTwo = 0;
    const diffs: string[] = [];
    for (const symbol of ["SPX", "000001.sh"]) {
      const all = loadRealBars(symbol);
      for (let k = 0; k < 10; k++) {
        const end = 1100 + Math.floor(((all.length - 1100) * k) / 10);
        const since = all[end - 250]?.date ?? "";
        const at = (w: number) => {
          const a = read(symbol, all.slice(Math.max(0, end + 1 - w), end + 1));
          const ev = a.events.filter((e) => e.confirmedAt >= since).map((e) => `${e.type}@${e.date}`);
          return `${a.phase.name} ${ev.join(" ")}`;
        };
        const [a, b, c] = [at(500), at(1000), at(all.length)];
        if (a === b && b === c) allThree++;
        else diffs.push(`${symbol} ${all[end]?.date}: ${a} | ${b} | ${c}`);
        if (b === c) longTwo++;
      }
    }
    expect(allThree, diffs.join("\n")).toBeGreaterThanOrEqual(18);
    expect(longTwo, diffs.join("\n")).toBeGreaterThanOrEqual(20);
  });
});
