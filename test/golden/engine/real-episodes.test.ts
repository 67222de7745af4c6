/**
 * The engine on the labelled real episodes (test/fixtures/episodes/, scored by
 * test/support/episodes.ts) and on the held-out half of the generator's seeds. Floors below are
 * only ever raised: a change that lowers a figure must fix the engine, never the floor or a label.
 * With TRUTH_OUT set (`npm run truth`) the figures are also written there as JSON.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatSuite, GROUPS, type Group, scoreSuite, type SuiteScore } from "../../support/episodes";
import { formatSynthetic, scoreSynthetic, type SyntheticScore } from "../../support/schematics/held-out";

/** Real-suite floors per group (recall, precision); raise them as the engine improves. */
const REAL_FLOORS: Record<Group, { recall: number; precision: number }> = {
  // SC/BC precision .88 → .84 once, by exactly one event: `reExtremeBars` 120 (wrong side 14 → 1, AR
  // precision .563 → .600) also reads an SC on S&P 2000-10-13 where the label says SOW 10-12 (16/18
  // → 16/19); every other figure held. Reading a top as accumulation is the worse error.
  // Wave 8, both engine lines merged: climax discovery (a distribution's failure line from its
  // phase-A bands, a top's reaction searched over 25 bars, supersession by an opposite climax just
  // beyond a broken range, a BC exceeded before any ST re-anchored at the new high, UT volume 1.2×)
  // and events inside open structures (undercut, narrow-heavy and after-Spring STs, tests replayed
  // when a late AR confirms, Spring minimum 0.3%, #2 Spring spread ≥ 1): SC/BC .625/.842 → .792/.875,
  // AR .50/.60 → .722/.684, ST .217/.667 → .522/.769, Spring/UTAD .60/.60 → 1.0/.857.
  "SC/BC": { recall: 0.79, precision: 0.87 },
  AR: { recall: 0.72, precision: 0.68 },
  ST: { recall: 0.52, precision: 0.76 },
  "Spring/UTAD": { recall: 1, precision: 0.85 },
  "SOS/SOW": { recall: 0.34, precision: 0.8 },
};
/** Most wrong-side phases allowed at labelled tops and bottoms (lower only; 234 before issue 15, 91 after its first pass, 27 before ranges failed at half their height, 14 before the 120-bar context test of a re-accumulation, 1 before a markup ended at a 4% / 1.5 ATR reaction). */
const SIDE_VIOLATIONS_MAX = 0;
/** Held-out synthetic floor per goal type. */
const SYNTH_FLOOR = 0.9;

const out: { real?: SuiteScore; synthetic?: SyntheticScore } = {};

function flush(): void {
  const file = process.env.TRUTH_OUT;
  if (file) writeFileSync(file, JSON.stringify(out));
}

describe("truth: real episodes and held-out synthetic seeds", () => {
  it("scores the labelled real episodes at or above the floors", { timeout: 300_000 }, () => {
    const s = scoreSuite();
    out.real = s;
    flush();
    const table = formatSuite(s);
    expect(s.episodes.length).toBeGreaterThanOrEqual(15);
    expect(s.total.labels).toBeGreaterThanOrEqual(80);
    for (const g of GROUPS) {
      const c = s.byGroup[g];
      const why = `${g}: recall ${c.recall.toFixed(3)}, precision ${c.precision.toFixed(3)}\n${table}`;
      expect.soft(c.recall, why).toBeGreaterThanOrEqual(REAL_FLOORS[g].recall);
      if (c.detected > 0) expect.soft(c.precision, why).toBeGreaterThanOrEqual(REAL_FLOORS[g].precision);
    }
    expect(s.sideViolations, table).toBeLessThanOrEqual(SIDE_VIOLATIONS_MAX);
  });

  it("scores the held-out synthetic seeds at or above the floor", { timeout: 300_000 }, () => {
    const s = scoreSynthetic("held-out");
    out.synthetic = s;
    flush();
    const table = formatSynthetic(s);
    for (const r of s.rows) {
      if (!r.goal) continue;
      expect.soft(r.recall, `${r.type}\n${table}`).toBeGreaterThanOrEqual(SYNTH_FLOOR);
      expect.soft(r.precision, `${r.type}\n${table}`).toBeGreaterThanOrEqual(SYNTH_FLOOR);
    }
  });
});
