/**
 * Accumulation schematic builders: markdown into PS and the selling climax, AR, secondary tests and
 * absorption (phases A–B), then the phases shared with re-accumulation: Spring (#1/#2/#3) and its
 * Test (C), SOS/JAC and the LPS/BU pullback (D) and the markup (E).
 */
import { intBetween, pick, uniform } from "./rng";
import { approach, argMaxHigh, type Ctx, frozenBar, highOf, label, lowOf, trendLeg } from "./schematic-context";
import { shapeBar } from "./shape-bar";

/** Price band a range's quiet bars stay in, with their volume level. */
export interface RangeBand {
  minLow: number;
  maxHigh: number;
  volMul: number;
}

/** A secondary test of support `S`: an approach, a lower-volume swing low just above S, two bars up. */
export function accSecondaryTest(c: Ctx, S: number, inRange: RangeBand, vr: readonly [number, number]): void {
  const { b, rng, scale } = c;
  b.path(S * (uniform(rng, 1.015, 1.03) + 0.02 * scale), intBetween(rng, 4, 7), inRange);
  const low = S * (1 + uniform(rng, 0.002, 0.015) * scale);
  const i = b.shaped(
    shapeBar(
      {
        prevClose: b.close(),
        low,
        range: b.meanSpread() * uniform(rng, 0.8, 1.05),
        cp: uniform(rng, 0.5, 0.8),
        vr: uniform(rng, vr[0], vr[1]),
      },
      rng,
    ),
  );
  label(c, "ST", i);
  b.path(b.close() * 1.012, 2, { ...inRange, minLow: low * 1.006 });
}

/** Phase B swings until bar `until`, then the Spring (and its Test unless a #3 skips it). */
export function springAndTest(
  c: Ctx,
  S: number,
  R: number,
  until: number,
  inRange: RangeBand,
  failed: boolean,
): { base: number; tested: boolean; type: "#1" | "#2" | "#3"; failedOut: boolean } {
  const { b, rng, scale } = c;
  const span = R - S;
  while (b.bars.length < until - 6) {
    b.path(S + span * uniform(rng, 0.55, 0.85), intBetween(rng, 3, 5), inRange);
    b.path(S + span * uniform(rng, 0.2, 0.35), intBetween(rng, 3, 5), inRange);
  }
  approach(c, S * uniform(rng, 1.006, 1.012), intBetween(rng, 3, 5), "down");
  const atrP = b.atrPct();
  const type = pick(rng, [
    ["#3", 0.4],
    ["#2", 0.35],
    ["#1", 0.25],
  ] as const);
  const pen =
    type === "#3"
      ? scale * uniform(rng, 0.0065, 0.0095)
      : type === "#2"
        ? Math.min(scale * uniform(rng, 0.011, 0.02), 1.3 * atrP)
        : Math.min(scale * uniform(rng, 0.015, 0.028), 1.8 * atrP);
  const sLow = S * (1 - Math.max(pen, 0.006 * scale));
  const vr = type === "#3" ? uniform(rng, 0.4, 0.6) : type === "#2" ? uniform(rng, 0.85, 1.3) : uniform(rng, 1.7, 2.4);
  const rangeMul =
    type === "#3" ? uniform(rng, 0.75, 0.92) : type === "#2" ? uniform(rng, 1.1, 1.5) : uniform(rng, 1.6, 2.1);
  const range = b.meanSpread() * rangeMul;
  const sameBar = type === "#3" || rng.next() < 0.6;
  let spring: number;
  if (sameBar) {
    const cp = Math.max(uniform(rng, 0.55, 0.75), (S * 1.002 - sLow) / range);
    spring = b.shaped(
      shapeBar(
        {
          prevClose: b.close(),
          low: sLow,
          range: Math.max(range, (S * 1.003 - sLow) / 0.95),
          cp: Math.min(cp, 0.95),
          vr,
        },
        rng,
      ),
    );
  } else {
    spring = b.shaped(
      shapeBar(
        {
          prevClose: b.close(),
          low: sLow,
          range,
          cp: Math.min(uniform(rng, 0.25, 0.4), (S * 0.997 - sLow) / range),
          vr,
        },
        rng,
      ),
    );
    const low = sLow * (1 + uniform(rng, 0.003, 0.008));
    const close = S * (1 + uniform(rng, 0.003, 0.01));
    const cp = uniform(rng, 0.65, 0.85);
    b.shaped({
      open: Math.max(low, b.close()),
      low,
      close,
      high: low + (close - low) / cp,
      vr: uniform(rng, 1.0, 1.2),
    });
  }
  label(c, "Spring", spring, type);
  if (failed) {
    b.path(S * 1.01, intBetween(rng, 2, 4), { minLow: sLow * 1.005, maxHigh: R * 0.98 });
    b.path(sLow * 0.92, 6);
    b.path(sLow * 0.8, 25);
    return { base: sLow, tested: false, type, failedOut: true };
  }
  if (type !== "#3" || rng.next() < 0.5) {
    const testLow = sLow * (1 + uniform(rng, 0.004, 0.022) * scale);
    const band = { minLow: testLow * 1.006, maxHigh: R * 0.98 };
    b.path(S * (1 + uniform(rng, 0.02, 0.04)), intBetween(rng, 2, 4), band);
    b.path(testLow * 1.012, intBetween(rng, 1, 3), { ...band, minLow: testLow * 1.004 });
    const t = b.shaped(
      shapeBar(
        {
          prevClose: b.close(),
          low: testLow,
          range: b.meanSpread() * uniform(rng, 0.7, 0.95),
          cp: uniform(rng, 0.55, 0.85),
          vr: uniform(rng, 0.45, 0.68),
        },
        rng,
      ),
    );
    label(c, "Test", t);
    b.path(b.close() * 1.01, 2, { ...band, minLow: testLow * 1.004 });
    return { base: testLow, tested: true, type, failedOut: false };
  }
  return { base: sLow, tested: false, type, failedOut: false };
}

/** SOS through resistance, an LPS or BU pullback on dry volume, and the markup. */
export function breakoutToMarkup(c: Ctx, S: number, R: number, base: number, jac: boolean): void {
  const { b, rng, scale } = c;
  b.path(R * uniform(rng, 0.965, 0.982), intBetween(rng, 5, 9), { minLow: base * 1.01, maxHigh: R * 0.99 });
  const sosClose = R * (1 + uniform(rng, 0.018, 0.04) * scale);
  const sosCp = uniform(rng, 0.75, 0.92);
  const sosRange = Math.max(b.meanSpread() * uniform(rng, 1.7, 2.4), (sosClose - b.close() * 0.995) / sosCp);
  const sos = b.shaped(
    shapeBar(
      {
        prevClose: b.close(),
        low: sosClose - sosCp * sosRange,
        range: sosRange,
        cp: sosCp,
        vr: uniform(rng, 1.9, 3.0),
      },
      rng,
    ),
  );
  label(c, "SOS", sos, jac ? "JAC" : undefined);
  const mid = (S + R) / 2;
  const deepHi = R * (1 - 0.03 * scale) - 0.005 * R;
  const kind = pick(rng, [
    ["BU", 0.4],
    ["LPS", 0.6],
  ] as const);
  let target: number;
  if (kind === "BU") target = R * (1 + uniform(rng, -0.008, 0.012));
  else if (mid * 1.015 < deepHi && rng.next() < 0.5) target = uniform(rng, mid * 1.015, deepHi);
  else target = R * (1 + uniform(rng, 0.045, 0.065) * scale);
  const atr2 = b.atrPct();
  const peak = Math.max(target * (1 + 2.6 * atr2), sosClose * 1.015);
  b.path(peak, intBetween(rng, 2, 3), { minLow: R * 1.003, volMul: 1.1 });
  const top = argMaxHigh(c, sos, b.bars.length - 1);
  const pbN = intBetween(rng, 2, 4);
  b.path(target * 1.012, pbN, { minLow: target * 1.004, maxHigh: highOf(c, top) * 0.995, volMul: 0.45, calm: true });
  const lp = b.shaped(
    shapeBar(
      {
        prevClose: b.close(),
        low: target,
        range: b.meanSpread() * uniform(rng, 0.65, 0.85),
        cp: uniform(rng, 0.35, 0.6),
        vr: 0.5,
      },
      rng,
    ),
  );
  label(c, kind, lp);
  b.quiet(target * 1.012, { minLow: target * 1.004, volMul: 0.6, calm: true });
  const cl = target * (1 + uniform(rng, 0.022, 0.035));
  const ccp = uniform(rng, 0.72, 0.9);
  const lo = Math.max(target * 1.005, cl - b.meanSpread() * 0.9);
  b.shaped({ open: Math.max(lo, Math.min(b.close(), cl)), low: lo, close: cl, high: lo + (cl - lo) / ccp, vr: 1.0 });
  b.path(Math.max(R * 1.04, b.close() * 1.02), 4, { minLow: Math.min(target * 1.004, R * 1.01) });
  const n = intBetween(rng, 40, 55);
  for (let k = 0; k < n; k++) {
    if (c.market === "CN" && k === 12 && rng.next() < 0.5) frozenBar(c, true, uniform(rng, 0.4, 0.8));
    else b.quiet(b.close() * 1.004, { minLow: R * 1.012, volMul: 1.0 });
  }
}

/** Accumulation after a markdown (phases A–E), or its failure after the Spring. */
export function accumulation(c: Ctx, failed: boolean): void {
  const { b, rng, scale } = c;
  const p0 = b.close();
  b.path(p0 * uniform(rng, 0.97, 1.03), 40);
  // Markdown into the climax, with a preliminary stop 8–18 bars before it.
  const psLag = intBetween(rng, 8, 18);
  const nDown = intBetween(rng, 70, 90);
  trendLeg(c, p0 * uniform(rng, 0.68, 0.74), nDown - psLag - 1, false);
  const minPrior = Math.min(...b.bars.slice(-19).map((x) => x.low));
  const ps = b.shaped(
    shapeBar(
      {
        prevClose: b.close(),
        low: minPrior * (1 - uniform(rng, 0.005, 0.012)),
        range: b.meanSpread() * uniform(rng, 1.1, 1.4),
        cp: uniform(rng, 0.55, 0.75),
        vr: uniform(rng, 1.6, 1.9),
      },
      rng,
    ),
  );
  label(c, "PS", ps);
  b.path(b.close() * uniform(rng, 0.88, 0.92), psLag - 1);
  // Selling climax (CN main board: sometimes a limit-locked day reversed the next day).
  let sc: number;
  const minLow60 = Math.min(...b.bars.slice(-60).map((x) => x.low));
  if (c.market === "CN" && c.board === "main" && rng.next() < 0.35) {
    const k = frozenBar(c, false, uniform(rng, 0.6, 1.2));
    const low = lowOf(c, k) * (1 + uniform(rng, 0.001, 0.004));
    const spec = { prevClose: b.close(), low, range: b.meanSpread() * uniform(rng, 2.2, 3.0) };
    sc = b.shaped(shapeBar({ ...spec, cp: uniform(rng, 0.6, 0.85), vr: uniform(rng, 2.6, 3.6), openAtLow: true }, rng));
  } else {
    const range = b.meanSpread() * uniform(rng, 2.3, 3.2);
    const high = b.close() * (1 + uniform(rng, 0, 0.004));
    const low = Math.min(high - range, minLow60 * 0.995);
    sc = b.shaped(
      shapeBar(
        { prevClose: b.close(), low, range: high - low, cp: uniform(rng, 0.55, 0.8), vr: uniform(rng, 2.5, 3.8) },
        rng,
      ),
    );
  }
  label(c, "SC", sc);
  const S = Math.min(lowOf(c, sc), lowOf(c, sc - 1));
  const kAr = intBetween(rng, 3, 7);
  b.path(S * (1 + uniform(rng, 0.1, 0.17) * Math.sqrt(scale)), kAr, { minLow: S * 1.012, volMul: 1.1 });
  const ar = argMaxHigh(c, sc + 1, sc + kAr);
  label(c, "AR", ar);
  const R = highOf(c, ar);
  const span = R - S;
  const inRange = { minLow: S * (1.01 + 0.02 * scale), maxHigh: R * 0.985, volMul: 0.85 };
  accSecondaryTest(c, S, inRange, [0.9, 1.25]);
  b.path(S + span * uniform(rng, 0.6, 0.85), intBetween(rng, 5, 8), inRange);
  if (rng.next() < 0.5 && b.bars.length + 8 <= ar + 36) {
    accSecondaryTest(c, S, inRange, [0.9, 1.25]);
    b.path(S + span * uniform(rng, 0.6, 0.85), intBetween(rng, 4, 7), inRange);
  }
  if (rng.next() < 0.35) {
    b.path(S + span * uniform(rng, 0.2, 0.3), intBetween(rng, 3, 5), inRange);
    const cl = b.close() * (1 + uniform(rng, -0.008, 0.008));
    const rg = b.meanSpread() * uniform(rng, 0.9, 1.1);
    const low = Math.max(cl - rg * uniform(rng, 0.4, 0.6), S * 1.03);
    const evr = b.shaped({
      open: b.close(),
      high: low + rg,
      low,
      close: Math.min(Math.max(cl, low), low + rg),
      vr: uniform(rng, 2.1, 2.7),
    });
    label(c, "EVR", evr, "absorption");
    b.path(b.close() * 1.01, 2, { ...inRange, minLow: low * 1.003 });
  }
  const springAt = ar + 18 + intBetween(rng, 0, 12);
  const spring = springAndTest(c, S, R, springAt, inRange, failed);
  if (spring.failedOut) return;
  breakoutToMarkup(c, S, R, spring.base, spring.tested || spring.type !== "#3");
}
