/**
 * Re-accumulation and re-distribution: trading ranges that pause a trend without a climax. An
 * uptrend tops out on ordinary volume, reacts on lighter volume than the advance (the AR sets support), tests support on lighter volume,
 * may shake out below it, and breaks out (SOS, LPS/BU, markup); re-distribution mirrors it.
 */
import { accSecondaryTest, breakoutToMarkup, springAndTest } from "./accumulation";
import { breakdownToMarkdown, distSecondaryTest, upthrustAfterDistribution } from "./distribution";
import { intBetween, uniform } from "./rng";
import { argMaxHigh, argMinLow, type Ctx, highOf, label, lowOf, trendLeg } from "./schematic-context";
import { shapeBar } from "./shape-bar";

/** Lighter volume of the tests inside a re-accumulation / re-distribution range. */
const TEST_VR = [0.55, 0.85] as const;

/** An uptrend, a range with optional Spring, SOS/JAC, LPS/BU and the resumed markup. */
export function reaccumulation(c: Ctx): void {
  const { b, rng, scale } = c;
  const p0 = b.close();
  b.path(p0 * uniform(rng, 0.97, 1.03), 40);
  trendLeg(c, p0 * uniform(rng, 1.22, 1.32), intBetween(rng, 55, 70), true);
  b.path(b.close() * uniform(rng, 1.03, 1.05), 5, { calm: true });
  const max60 = Math.max(...b.bars.slice(-60).map((x) => x.high));
  const rg = b.meanSpread() * uniform(rng, 0.9, 1.2);
  const topHigh = Math.max(max60 * 1.004, b.close() * (1 + uniform(rng, 0.005, 0.012)));
  const top = b.shaped(
    shapeBar(
      { prevClose: b.close(), low: topHigh - rg, range: rg, cp: uniform(rng, 0.35, 0.6), vr: uniform(rng, 1.0, 1.4) },
      rng,
    ),
  );
  const R = highOf(c, top);
  const kAr = intBetween(rng, 4, 8);
  const depth = uniform(rng, 0.09, 0.14) * Math.sqrt(scale);
  b.path(R * (1 - depth), kAr, { maxHigh: R * 0.99, volMul: 0.8, spreadMul: 1.2, calm: true });
  const ar = argMinLow(c, top + 1, top + kAr);
  label(c, "AR", ar, "down");
  const S = lowOf(c, ar);
  const span = R - S;
  const inRange = { minLow: S * (1.01 + 0.02 * scale), maxHigh: R * 0.985, volMul: 0.85 };
  b.path(S + span * uniform(rng, 0.55, 0.8), intBetween(rng, 5, 8), inRange);
  accSecondaryTest(c, S, inRange, TEST_VR);
  b.path(S + span * uniform(rng, 0.6, 0.85), intBetween(rng, 5, 8), inRange);
  if (rng.next() < 0.5 && b.bars.length + 8 <= ar + 36) {
    accSecondaryTest(c, S, inRange, TEST_VR);
    b.path(S + span * uniform(rng, 0.6, 0.85), intBetween(rng, 4, 7), inRange);
  }
  const until = ar + 18 + intBetween(rng, 0, 12);
  if (rng.next() < 0.5) {
    const spring = springAndTest(c, S, R, until, inRange, false);
    breakoutToMarkup(c, S, R, spring.base, spring.tested || spring.type !== "#3");
    return;
  }
  while (b.bars.length < until) {
    b.path(S + span * uniform(rng, 0.55, 0.85), intBetween(rng, 3, 5), inRange);
    b.path(S + span * uniform(rng, 0.3, 0.45), intBetween(rng, 3, 5), inRange);
  }
  breakoutToMarkup(c, S, R, inRange.minLow, false);
}

/** A downtrend, a range with optional UTAD, SOW, LPSY and the resumed markdown. */
export function redistribution(c: Ctx): void {
  const { b, rng, scale } = c;
  const p0 = b.close();
  b.path(p0 * uniform(rng, 0.97, 1.03), 40);
  trendLeg(c, p0 * uniform(rng, 0.7, 0.78), intBetween(rng, 55, 70), false);
  b.path(b.close() * uniform(rng, 0.95, 0.97), 5, { calm: true });
  const min60 = Math.min(...b.bars.slice(-60).map((x) => x.low));
  const rg = b.meanSpread() * uniform(rng, 0.9, 1.2);
  const botLow = Math.min(min60 * 0.996, b.close() * (1 - uniform(rng, 0.005, 0.012)));
  const bottom = b.shaped(
    shapeBar(
      { prevClose: b.close(), low: botLow, range: rg, cp: uniform(rng, 0.4, 0.65), vr: uniform(rng, 1.0, 1.4) },
      rng,
    ),
  );
  const S = lowOf(c, bottom);
  const kAr = intBetween(rng, 4, 8);
  const rise = uniform(rng, 0.1, 0.16) * Math.sqrt(scale);
  b.path(S * (1 + rise), kAr, { minLow: S * 1.01, volMul: 0.8, spreadMul: 1.2, calm: true });
  const ar = argMaxHigh(c, bottom + 1, bottom + kAr);
  label(c, "AR", ar);
  const R = highOf(c, ar);
  const span = R - S;
  const inRange = { minLow: S * 1.015, maxHigh: R * (0.99 - 0.02 * scale), volMul: 0.85 };
  b.path(S + span * uniform(rng, 0.2, 0.45), intBetween(rng, 5, 8), inRange);
  distSecondaryTest(c, R, inRange, TEST_VR);
  b.path(S + span * uniform(rng, 0.15, 0.4), intBetween(rng, 5, 8), inRange);
  if (rng.next() < 0.5 && b.bars.length + 8 <= ar + 36) {
    distSecondaryTest(c, R, inRange, TEST_VR);
    b.path(S + span * uniform(rng, 0.15, 0.4), intBetween(rng, 4, 7), inRange);
  }
  const until = ar + 18 + intBetween(rng, 0, 12);
  if (rng.next() < 0.5) {
    const ut = upthrustAfterDistribution(c, S, R, until, inRange, false);
    breakdownToMarkdown(c, S, ut.utHigh);
    return;
  }
  while (b.bars.length < until) {
    b.path(S + span * uniform(rng, 0.15, 0.45), intBetween(rng, 3, 5), inRange);
    b.path(S + span * uniform(rng, 0.55, 0.7), intBetween(rng, 3, 5), inRange);
  }
  breakdownToMarkdown(c, S, R);
}
