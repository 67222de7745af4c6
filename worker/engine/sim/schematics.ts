/**
 * Seeded synthetic Wyckoff schematics: accumulation, distribution and their failed variants, in US
 * and A-share flavours, with the exact bar of every labelled event. Quiet bars follow a price path
 * inside the range; event bars are shaped by the textbook definitions (DOMAIN.md §1.4, §1.13).
 */
import type { Bar, Board, EventType, Market, PhaseName } from "../../contracts/analysis";
import { createBarBuilder, type BarBuilder } from "./bar-builder";
import { intBetween, pick, type Rng, uniform } from "./rng";
import { shapeBar } from "./shape-bar";

/** Kinds of schematic the generator draws. */
export type SchematicKind = "accumulation" | "distribution" | "failed_accumulation" | "failed_distribution";

/** A labelled event: its type and the bar index it refers to. */
export interface SchematicLabel {
  type: EventType;
  index: number;
  variant?: string;
}

/** A generated series with its answer key. */
export interface Schematic {
  kind: SchematicKind;
  market: Market;
  board: Board;
  bars: Bar[];
  labels: SchematicLabel[];
  /** Phase the engine should report at the last bar. */
  finalPhase: PhaseName;
  /** Indices of limit-locked bars the generator inserted (CN only). */
  frozen: number[];
}

/** Generator options. `noisy` uncaps quiet-bar volume and adds random volume spikes. */
export interface SchematicOptions {
  kind: SchematicKind;
  market: Market;
  rng: Rng;
  board?: Board;
  noisy?: boolean;
}

const SCALE: Record<Board, number> = { main: 1, chinext: 1.2, star: 1.4, bse: 1.2 };
const LIMIT: Record<Board, number> = { main: 0.1, chinext: 0.2, star: 0.2, bse: 0.3 };

interface Ctx {
  b: BarBuilder;
  rng: Rng;
  scale: number;
  board: Board;
  market: Market;
  labels: SchematicLabel[];
  frozen: number[];
}

function label(c: Ctx, type: EventType, index: number, variant?: string): void {
  c.labels.push(variant ? { type, index, variant } : { type, index });
}

function lowOf(c: Ctx, i: number): number {
  return c.b.bars[i]?.low ?? Number.NaN;
}

function highOf(c: Ctx, i: number): number {
  return c.b.bars[i]?.high ?? Number.NaN;
}

/** Appends a limit-locked bar (CN): open ≈ high ≈ low ≈ close at the daily limit. */
function frozenBar(c: Ctx, up: boolean, vr: number): number {
  const close = c.b.close() * (1 + (up ? 1 : -1) * LIMIT[c.board]);
  const i = c.b.shaped({ open: close, high: up ? close : close * 1.004, low: up ? close * 0.996 : close, close, vr });
  c.frozen.push(i);
  return i;
}

/** Index of the highest high in [from, to]. */
function argMaxHigh(c: Ctx, from: number, to: number): number {
  let k = from;
  for (let i = from; i <= to; i++) if (highOf(c, i) > highOf(c, k)) k = i;
  return k;
}

/** Index of the lowest low in [from, to]. */
function argMinLow(c: Ctx, from: number, to: number): number {
  let k = from;
  for (let i = from; i <= to; i++) if (lowOf(c, i) < lowOf(c, k)) k = i;
  return k;
}

/** Shaped bars whose lows (side "down") or highs (side "up") move strictly towards `to`, so none is a swing point. */
function approach(c: Ctx, to: number, k: number, side: "down" | "up"): void {
  const { b, rng } = c;
  const last = c.b.bars[c.b.bars.length - 1];
  if (!last) return;
  const from = side === "down" ? last.low : last.high;
  for (let j = 1; j <= k; j++) {
    const lvl = from + ((to - from) * j) / k;
    const rg = b.meanSpread() * uniform(rng, 0.8, 1.05);
    const low = side === "down" ? lvl : lvl - rg;
    b.shaped(
      shapeBar({ prevClose: b.close(), low, range: rg, cp: uniform(rng, 0.3, 0.6), vr: uniform(rng, 0.75, 1.1) }, rng),
    );
  }
}

function accumulation(c: Ctx, failed: boolean): void {
  const { b, rng, scale } = c;
  const p0 = b.close();
  b.path(p0 * uniform(rng, 0.97, 1.03), 40);
  // Markdown into the climax, with a preliminary stop 8–18 bars before it.
  const psLag = intBetween(rng, 8, 18);
  const nDown = intBetween(rng, 70, 90);
  b.path(p0 * uniform(rng, 0.68, 0.74), nDown - psLag - 1);
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
    const lk = lowOf(c, k);
    const low = lk * (1 + uniform(rng, 0.001, 0.004));
    sc = b.shaped(
      shapeBar(
        {
          prevClose: b.close(),
          low,
          range: b.meanSpread() * uniform(rng, 2.2, 3.0),
          cp: uniform(rng, 0.6, 0.85),
          vr: uniform(rng, 2.6, 3.6),
          openAtLow: true,
        },
        rng,
      ),
    );
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
  // Automatic rally.
  const kAr = intBetween(rng, 3, 7);
  b.path(S * (1 + uniform(rng, 0.1, 0.17) * Math.sqrt(scale)), kAr, { minLow: S * 1.012, volMul: 1.1 });
  const ar = argMaxHigh(c, sc + 1, sc + kAr);
  label(c, "AR", ar);
  const R = highOf(c, ar);
  const span = R - S;
  const inRange = { minLow: S * (1.01 + 0.02 * scale), maxHigh: R * 0.985, volMul: 0.85 };
  // Secondary test(s).
  const st = (): void => {
    b.path(S * (uniform(rng, 1.015, 1.03) + 0.02 * scale), intBetween(rng, 4, 7), inRange);
    const low = S * (1 + uniform(rng, 0.002, 0.015) * scale);
    const i = b.shaped(
      shapeBar(
        {
          prevClose: b.close(),
          low,
          range: b.meanSpread() * uniform(rng, 0.8, 1.05),
          cp: uniform(rng, 0.5, 0.8),
          vr: uniform(rng, 0.9, 1.25),
        },
        rng,
      ),
    );
    label(c, "ST", i);
    b.path(b.close() * 1.012, 2, { ...inRange, minLow: low * 1.006 });
  };
  st();
  b.path(S + span * uniform(rng, 0.6, 0.85), intBetween(rng, 5, 8), inRange);
  if (rng.next() < 0.5 && b.bars.length + 8 <= ar + 36) {
    st();
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
  while (b.bars.length < springAt - 6) {
    b.path(S + span * uniform(rng, 0.55, 0.85), intBetween(rng, 3, 5), inRange);
    b.path(S + span * uniform(rng, 0.2, 0.35), intBetween(rng, 3, 5), inRange);
  }
  // Spring.
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
    return;
  }
  let base = sLow;
  if (type !== "#3" || rng.next() < 0.5) {
    const testLow = sLow * (1 + uniform(rng, 0.004, 0.022) * scale);
    b.path(S * (1 + uniform(rng, 0.02, 0.04)), intBetween(rng, 2, 4), { minLow: testLow * 1.006, maxHigh: R * 0.98 });
    b.path(testLow * 1.012, intBetween(rng, 1, 3), { minLow: testLow * 1.004, maxHigh: R * 0.98 });
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
    b.path(b.close() * 1.01, 2, { minLow: testLow * 1.004, maxHigh: R * 0.98 });
    base = testLow;
  }
  // Sign of strength: rally to just under resistance, then a wide, high-volume bar through it.
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
  label(c, "SOS", sos, base === sLow && type === "#3" ? undefined : "JAC");
  // Last point of support or back-up.
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
  b.path(target * 1.012, pbN, { minLow: target * 1.004, maxHigh: highOf(c, top) * 0.995, volMul: 0.45 });
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
  b.quiet(target * 1.012, { minLow: target * 1.004, volMul: 0.6 });
  const cl = target * (1 + uniform(rng, 0.022, 0.035));
  const ccp = uniform(rng, 0.72, 0.9);
  const lo = Math.max(target * 1.005, cl - b.meanSpread() * 0.9);
  b.shaped({ open: Math.max(lo, Math.min(b.close(), cl)), low: lo, close: cl, high: lo + (cl - lo) / ccp, vr: 1.0 });
  // Markup.
  b.path(Math.max(R * 1.04, b.close() * 1.02), 4, { minLow: Math.min(target * 1.004, R * 1.01) });
  const n = intBetween(rng, 40, 55);
  for (let k = 0; k < n; k++) {
    if (c.market === "CN" && k === 12 && rng.next() < 0.5) frozenBar(c, true, uniform(rng, 0.4, 0.8));
    else b.quiet(b.close() * 1.004, { minLow: R * 1.012, volMul: 1.0 });
  }
}

function distribution(c: Ctx, failed: boolean): void {
  const { b, rng, scale } = c;
  const p0 = b.close();
  b.path(p0 * uniform(rng, 0.97, 1.03), 40);
  const psyLag = intBetween(rng, 8, 18);
  const nUp = intBetween(rng, 70, 90);
  b.path(p0 * uniform(rng, 1.32, 1.4), nUp - psyLag - 1);
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
  const st = (): void => {
    b.path(R * (uniform(rng, 0.97, 0.985) - 0.02 * scale), intBetween(rng, 4, 7), inRange);
    const hi = R * (1 - uniform(rng, 0.002, 0.015) * scale);
    const rg = b.meanSpread() * uniform(rng, 0.8, 1.05);
    const i = b.shaped(
      shapeBar(
        { prevClose: b.close(), low: hi - rg, range: rg, cp: uniform(rng, 0.2, 0.5), vr: uniform(rng, 0.9, 1.25) },
        rng,
      ),
    );
    label(c, "ST", i);
    b.path(b.close() * 0.988, 2, { ...inRange, maxHigh: hi * 0.994 });
  };
  b.path(S + span * uniform(rng, 0.3, 0.5), intBetween(rng, 2, 4), inRange);
  st();
  b.path(S + span * uniform(rng, 0.15, 0.4), intBetween(rng, 5, 8), inRange);
  if (rng.next() < 0.5 && b.bars.length + 8 <= ar + 36) {
    st();
    b.path(S + span * uniform(rng, 0.15, 0.4), intBetween(rng, 4, 7), inRange);
  }
  const utAt = ar + 18 + intBetween(rng, 0, 12);
  while (b.bars.length < utAt - 6) {
    b.path(S + span * uniform(rng, 0.15, 0.45), intBetween(rng, 3, 5), inRange);
    b.path(S + span * uniform(rng, 0.6, 0.8), intBetween(rng, 3, 5), inRange);
  }
  // UTAD: pokes above resistance on volume and closes back inside.
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
  if (!sameBar)
    b.shaped(
      shapeBar(
        {
          prevClose: b.close(),
          low: R * (1 - uniform(rng, 0.015, 0.025)),
          range: b.meanSpread(),
          cp: uniform(rng, 0.2, 0.4),
          vr: 1.0,
        },
        rng,
      ),
    );
  if (failed) {
    b.path(R * 0.995, 3, { maxHigh: utHigh * 0.995, minLow: S * 1.02 });
    b.path(utHigh * 1.08, 6);
    b.path(utHigh * 1.25, 25);
    return;
  }
  // Sign of weakness.
  b.path(S * uniform(rng, 1.012, 1.025), intBetween(rng, 5, 9), { minLow: S * 1.008, maxHigh: utHigh * 0.97 });
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
  // LPSY: a weak rally that fails under broken support.
  const target = S * (1 - uniform(rng, 0.004, 0.02));
  const atr2 = b.atrPct();
  const trough = Math.min(target * (1 - 2.6 * atr2), sowClose * 0.985);
  b.path(trough, intBetween(rng, 2, 3), { maxHigh: S * 0.997, volMul: 1.1 });
  const bottom = argMinLow(c, sow, b.bars.length - 1);
  b.path(target * 0.988, intBetween(rng, 2, 4), {
    maxHigh: target * 0.996,
    minLow: lowOf(c, bottom) * 1.005,
    volMul: 0.45,
  });
  const rg = b.meanSpread() * uniform(rng, 0.65, 0.85);
  const lpsy = b.shaped(
    shapeBar({ prevClose: b.close(), low: target - rg, range: rg, cp: uniform(rng, 0.4, 0.65), vr: 0.5 }, rng),
  );
  label(c, "LPSY", lpsy);
  b.quiet(target * 0.988, { maxHigh: target * 0.996, volMul: 0.6 });
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

/** Draws one schematic. */
export function generateSchematic(o: SchematicOptions): Schematic {
  const rng = o.rng;
  const board: Board =
    o.board ??
    (o.market === "CN"
      ? pick(rng, [
          ["main", 0.6],
          ["chinext", 0.25],
          ["star", 0.15],
        ] as const)
      : "main");
  const cn = o.market === "CN";
  const b = createBarBuilder({
    rng,
    startPrice: cn ? uniform(rng, 6, 40) : uniform(rng, 20, 160),
    startDate: cn ? "2023-01-03" : "2022-06-01",
    baseVolume: cn ? uniform(rng, 1e7, 6e7) : uniform(rng, 1e6, 8e6),
    baseSpread: cn ? uniform(rng, 0.022, 0.03) : uniform(rng, 0.018, 0.026),
    noise: 0.006,
    volSigma: o.noisy ? 0.35 : 0.2,
    quietVrCap: o.noisy ? Number.POSITIVE_INFINITY : 1.3,
  });
  const c: Ctx = { b, rng, scale: cn ? SCALE[board] : 1, board, market: o.market, labels: [], frozen: [] };
  if (o.kind === "accumulation" || o.kind === "failed_accumulation") accumulation(c, o.kind === "failed_accumulation");
  else distribution(c, o.kind === "failed_distribution");
  const finalPhase: PhaseName = o.kind === "accumulation" || o.kind === "failed_distribution" ? "MARKUP" : "MARKDOWN";
  return { kind: o.kind, market: o.market, board, bars: b.bars, labels: c.labels, finalPhase, frozen: c.frozen };
}
