/**
 * Distribution schematic builders: run-up into PSY and the buying climax, AR, secondary tests
 * (phases A–B), then the phases shared with re-distribution: UTAD (C), SOW and the LPSY rally (D)
 * and the markdown (E).
 */
import type { RangeBand } from "./accumulation";
import { intBetween, uniform } from "./rng";
import { approach, argMinLow, type Ctx, frozenBar, highOf, label, lowOf, trendLeg } from "./schematic-context";
import { shapeBar } from "./shape-bar";

/** A secondary test of resistance `R`: a rally, a lower-volume swing high just under R, two bars down. */
export function distSecondaryTest(c: Ctx, R: number, inRange: RangeBand, vr: readonly [number, number]): void {
  const { b, rng, scale } = c;
  b.path(R * (uniform(rng, 0.97, 0.985) - 0.02 * scale), intBetween(rng, 4, 7), inRange);
  const hi = R * (1 - uniform(rng, 0.002, 0.015) * scale);
  const rg = b.meanSpread() * uniform(rng, 0.8, 1.05);
  const i = b.shaped(
    shapeBar(
      { prevClose: b.close(), low: hi - rg, range: rg, cp: uniform(rng, 0.2, 0.5), vr: uniform(rng, vr[0], vr[1]) },
      rng,
    ),
  );
  label(c, "ST", i);
  b.path(b.close() * 0.988, 2, { ...inRange, maxHigh: hi * 0.994 });
}

/** Phase B swings until bar `until`, then the UTAD: a poke above R on volume that closes back inside. */
export function upthrustAfterDistribution(
  c: Ctx,
  S: number,
  R: number,
  until: number,
  inRange: RangeBand,
  failed: boolean,
): { utHigh: number; failedOut: boolean } {
  const { b, rng, scale } = c;
  const span = R - S;
  while (b.bars.length < until - 6) {
    b.path(S + span * uniform(rng, 0.15, 0.45), intBetween(rng, 3, 5), inRange);
    b.path(S + span * uniform(rng, 0.6, 0.8), intBetween(rng, 3, 5), inRange);
  }
  approach(c, R * uniform(rng, 0.988, 0.994), intBetween(rng, 3, 5), "up");
  const utHigh = R * (1 + uniform(rng, 0.012, 0.025) * scale);
  const sameBar = rng.next() < 0.6;
  const utClose = sameBar ? R * (1 - uniform(rng, 0.002, 0.01)) : R * (1 + uniform(rng, 0.001, 0.004));
  let utOpen = Math.min(b.close(), R * 0.998);
  let utLow = Math.min(utOpen, utClose) * (1 - uniform(rng, 0.002, 0.008));
  const shadowOf = (): number => (utHigh - Math.max(utOpen, utClose)) / (utHigh - utLow);
  if (shadowOf() < 0.42) {
    utOpen = utClose;
    utLow = Math.min(utClose * 0.998, utHigh - (utHigh - utClose) / 0.45);
  }
  const utad = b.shaped({ open: utOpen, high: utHigh, low: utLow, close: utClose, vr: uniform(rng, 1.8, 2.8) });
  label(c, "UTAD", utad);
  if (!sameBar) {
    const spec = { prevClose: b.close(), low: R * (1 - uniform(rng, 0.015, 0.025)), range: b.meanSpread() };
    b.shaped(shapeBar({ ...spec, cp: uniform(rng, 0.2, 0.4), vr: 1.0 }, rng));
  }
  if (failed) {
    b.path(R * 0.995, 3, { maxHigh: utHigh * 0.995, minLow: S * 1.02 });
    b.path(utHigh * 1.08, 6);
    b.path(utHigh * 1.25, 25);
    return { utHigh, failedOut: true };
  }
  return { utHigh, failedOut: false };
}

/** SOW through support, an LPSY rally on dry volume under broken support, and the markdown. */
export function breakdownToMarkdown(c: Ctx, S: number, ceiling: number): void {
  const { b, rng, scale } = c;
  b.path(S * uniform(rng, 1.012, 1.025), intBetween(rng, 5, 9), { minLow: S * 1.008, maxHigh: ceiling * 0.97 });
  const sowClose = S * (1 - uniform(rng, 0.018, 0.04) * scale);
  const sowCp = uniform(rng, 0.06, 0.22);
  const sowRange = Math.max(b.meanSpread() * uniform(rng, 1.7, 2.4), (b.close() * 1.005 - sowClose) / (1 - sowCp));
  const sow = b.shaped(
    shapeBar(
      {
        prevClose: b.close(),
        low: sowClose - sowCp * sowRange,
        range: sowRange,
        cp: sowCp,
        vr: uniform(rng, 1.9, 3.0),
      },
      rng,
    ),
  );
  label(c, "SOW", sow);
  const target = S * (1 - uniform(rng, 0.004, 0.02));
  const atr2 = b.atrPct();
  const trough = Math.min(target * (1 - 2.6 * atr2), sowClose * 0.985);
  b.path(trough, intBetween(rng, 2, 3), { maxHigh: S * 0.997, volMul: 1.1 });
  const bottom = argMinLow(c, sow, b.bars.length - 1);
  const rally = { maxHigh: target * 0.996, minLow: lowOf(c, bottom) * 1.005, volMul: 0.45, calm: true };
  b.path(target * 0.988, intBetween(rng, 2, 4), rally);
  const rg = b.meanSpread() * uniform(rng, 0.65, 0.85);
  const lpsy = b.shaped(
    shapeBar({ prevClose: b.close(), low: target - rg, range: rg, cp: uniform(rng, 0.4, 0.65), vr: 0.5 }, rng),
  );
  label(c, "LPSY", lpsy);
  b.quiet(target * 0.988, { maxHigh: target * 0.996, volMul: 0.6, calm: true });
  const cl = target * (1 - uniform(rng, 0.022, 0.035));
  const ccp = uniform(rng, 0.1, 0.28);
  const hi = Math.min(target * 0.995, cl + b.meanSpread() * 0.9);
  b.shaped({
    open: Math.min(hi, Math.max(b.close(), cl)),
    high: hi,
    close: cl,
    low: hi - (hi - cl) / (1 - ccp),
    vr: 1.0,
  });
  b.path(Math.min(S * 0.96, b.close() * 0.98), 4, { maxHigh: S * 0.99 });
  const n = intBetween(rng, 40, 55);
  for (let k = 0; k < n; k++) {
    if (c.market === "CN" && k === 12 && rng.next() < 0.5) frozenBar(c, false, uniform(rng, 0.4, 0.8));
    else b.quiet(b.close() * 0.996, { maxHigh: S * 0.988, volMul: 1.0 });
  }
}

/** Distribution after a run-up (phases A–E), or its failure after the UTAD. */
export function distribution(c: Ctx, failed: boolean): void {
  const { b, rng, scale } = c;
  const p0 = b.close();
  b.path(p0 * uniform(rng, 0.97, 1.03), 40);
  const psyLag = intBetween(rng, 8, 18);
  const nUp = intBetween(rng, 70, 90);
  trendLeg(c, p0 * uniform(rng, 1.32, 1.4), nUp - psyLag - 1, true);
  const maxPrior = Math.max(...b.bars.slice(-19).map((x) => x.high));
  const psyHigh = maxPrior * (1 + uniform(rng, 0.005, 0.012));
  const psyRange = b.meanSpread() * uniform(rng, 1.1, 1.4);
  const psy = b.shaped(
    shapeBar(
      {
        prevClose: b.close(),
        low: psyHigh - psyRange,
        range: psyRange,
        cp: uniform(rng, 0.25, 0.45),
        vr: uniform(rng, 1.6, 1.9),
      },
      rng,
    ),
  );
  label(c, "PSY", psy);
  b.path(b.close() * uniform(rng, 1.09, 1.12), psyLag - 1);
  const maxHigh60 = Math.max(...b.bars.slice(-60).map((x) => x.high));
  const range = b.meanSpread() * uniform(rng, 2.3, 3.2);
  const low = b.close() * (1 - uniform(rng, 0, 0.004));
  const high = Math.max(low + range, maxHigh60 * 1.005);
  const bc = b.shaped(
    shapeBar(
      { prevClose: b.close(), low, range: high - low, cp: uniform(rng, 0.25, 0.6), vr: uniform(rng, 2.5, 3.8) },
      rng,
    ),
  );
  label(c, "BC", bc);
  const R = highOf(c, bc);
  const kAr = intBetween(rng, 3, 7);
  b.path(R * (1 - uniform(rng, 0.1, 0.15) * Math.sqrt(scale)), kAr, { maxHigh: R * 0.988, volMul: 1.1 });
  const ar = argMinLow(c, bc + 1, bc + kAr);
  label(c, "AR", ar, "down");
  const S = lowOf(c, ar);
  const span = R - S;
  const inRange = { minLow: S * 1.015, maxHigh: R * (0.99 - 0.02 * scale), volMul: 0.85 };
  b.path(S + span * uniform(rng, 0.3, 0.5), intBetween(rng, 2, 4), inRange);
  distSecondaryTest(c, R, inRange, [0.9, 1.25]);
  b.path(S + span * uniform(rng, 0.15, 0.4), intBetween(rng, 5, 8), inRange);
  if (rng.next() < 0.5 && b.bars.length + 8 <= ar + 36) {
    distSecondaryTest(c, R, inRange, [0.9, 1.25]);
    b.path(S + span * uniform(rng, 0.15, 0.4), intBetween(rng, 4, 7), inRange);
  }
  const utAt = ar + 18 + intBetween(rng, 0, 12);
  const ut = upthrustAfterDistribution(c, S, R, utAt, inRange, failed);
  if (ut.failedOut) return;
  breakdownToMarkdown(c, S, ut.utHigh);
}
