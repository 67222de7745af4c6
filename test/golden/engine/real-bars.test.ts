/**
 * The engine on real daily bars (S&P 500 2000–2020, A-share indices and stocks from hqchart): input
 * handling, range quality, scale and history-length invariance, each on real series, none tied to a
 * date or symbol in the engine. Events on real bars: real-bars-events.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Analysis } from "../../../worker/contracts/analysis";
import { indexOnOrAfter, loadRealBars, REAL_SYMBOLS } from "../../support/real-bars";
import { around, barsBetween, read } from "../../support/real-reading";

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
    "answers in the contract's shape on every real series, at every 60th bar (500-bar windows)",
    { timeout: 120_000 },
    () => {
      // What analyze_stock and the chart route serve for any date: the card validates it with this schema
      // and draws nothing when it fails (a structure closed before its AR once had no band: null).
      const bad: string[] = [];
      for (const symbol of REAL_SYMBOLS) {
        const all = loadRealBars(symbol);
        for (let end = 260; end <= all.length; end += 60) {
          const r = Analysis.safeParse(read(symbol, all.slice(Math.max(0, end - 500), end)));
          if (!r.success)
            bad.push(`${symbol} to ${all[end - 1]?.date}: ${r.error.issues.map((i) => i.path.join(".")).join(", ")}`);
        }
      }
      expect(bad.slice(0, 10), `${bad.length} readings out of shape`).toEqual([]);
    },
  );

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

describe("one reading per date (history-length invariance on real series)", () => {
  /**
   * 20 dates (10 on the S&P 500, 10 on the SSE Composite, evenly spread after 1,100 bars) read with
   * 500, 1,000 and all bars before them. Measured today: phase and the events confirmed in the last
   * 250 bars agree across all three windows on 20 of 20 dates (19 before a selling climax became
   * readable from a window shorter than its 120-bar trend window — S&P 2004-05-20's 500-bar window
   * starts eight weeks before the July 2002 low and missed it, so the 2003-06-02 SOS too; 18 before
   * distributions failed from their phase A bands, a push back failed an accumulation and an ST
   * needed a close off its extreme; 17 before a range failed at half its
   * height beyond it, 14 before ranges stopped widening to
   * follow a trend; 18 before range exits were dated as SOS/SOW, whose date after a 250-bar warm-up
   * can still depend on a band set a year earlier), and between 1,000 bars and all bars on 20 of 20 —
   * the issue's goal (20 of 20 for all three); these floors only rise.
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
    expect(allThree, diffs.join("\n")).toBeGreaterThanOrEqual(20);
    expect(longTwo, diffs.join("\n")).toBeGreaterThanOrEqual(20);
  });
});
