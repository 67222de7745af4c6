/**
 * Appends synthetic daily bars one at a time: quiet "noise" bars that follow a price path inside
 * optional floor/ceiling constraints, and hand-shaped event bars whose volume and spread are set
 * relative to the builder's own recent averages (so vr and sr come out as designed). Quiet bars can
 * carry market noise: lognormal volume, occasional 1.5–2.5× volume spikes with a wider bar, and gaps.
 */
import type { Bar } from "../../contracts/analysis";
import { gauss, type Rng, uniform } from "./rng";

/** Constraints and scaling for one quiet bar. */
export interface QuietBarOptions {
  minLow?: number;
  maxHigh?: number;
  /** Volume level relative to the base volume. */
  volMul?: number;
  /** Spread relative to the base spread. */
  spreadMul?: number;
  /** No volume spike or gap on this bar (the run-in to a designed event). */
  calm?: boolean;
}

/** Shape of a hand-made bar, in prices and a volume ratio to the 20-bar mean. */
export interface ShapedBar {
  open: number;
  high: number;
  low: number;
  close: number;
  /** Target vr (volume / mean of the previous 20 volumes). */
  vr: number;
}

/** Mutable builder state. */
export interface BarBuilder {
  readonly bars: Bar[];
  readonly rng: Rng;
  /** Close of the last bar. */
  close(): number;
  /** Mean volume and spread of the last `n` bars. */
  meanVolume(n?: number): number;
  meanSpread(n?: number): number;
  /** Wilder-style ATR% over the last 14 bars (simple mean of true ranges / close). */
  atrPct(): number;
  /** Appends a quiet bar whose close follows `target`; returns its index. */
  quiet(target: number, o?: QuietBarOptions): number;
  /** Appends a shaped bar; returns its index. */
  shaped(bar: ShapedBar): number;
  /** Moves the close to `to` over `n` quiet bars (log-linear path). */
  path(to: number, n: number, o?: QuietBarOptions): void;
}

/** Options of a builder. */
export interface BuilderOptions {
  rng: Rng;
  startPrice: number;
  startDate: string;
  baseVolume: number;
  /** Base spread as a fraction of price, and close noise around the path. */
  baseSpread: number;
  noise: number;
  /** Lognormal sigma of quiet volumes, and the cap on their vr (Infinity = uncapped). */
  volSigma: number;
  quietVrCap: number;
  /** Chance that a quiet bar is a 1.5–2.5× volume spike with a wider range and a larger move. */
  spikeProb?: number;
  /** Chance that a quiet bar opens 0.8–2.5% away from the previous close. */
  gapProb?: number;
}

function nextBusinessDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString().slice(0, 10);
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

/** Creates a builder. */
export function createBarBuilder(o: BuilderOptions): BarBuilder {
  const bars: Bar[] = [];
  const rng = o.rng;
  let date = o.startDate;
  let lastClose = o.startPrice;
  const tail = (n: number): Bar[] => bars.slice(Math.max(0, bars.length - n));
  const meanVolume = (n = 20): number => {
    const t = tail(n);
    return t.length ? t.reduce((a, b) => a + b.volume, 0) / t.length : o.baseVolume;
  };
  const meanSpread = (n = 20): number => {
    const t = tail(n);
    return t.length ? t.reduce((a, b) => a + (b.high - b.low), 0) / t.length : o.baseSpread * lastClose;
  };
  const append = (b: Omit<Bar, "date">): number => {
    date = bars.length === 0 ? date : nextBusinessDay(date);
    const bar: Bar = {
      date,
      open: r4(b.open),
      high: r4(Math.max(b.high, b.open, b.close)),
      low: r4(Math.min(b.low, b.open, b.close)),
      close: r4(b.close),
      volume: Math.round(b.volume),
    };
    bars.push(bar);
    lastClose = bar.close;
    return bars.length - 1;
  };
  const builder: BarBuilder = {
    bars,
    rng,
    close: () => lastClose,
    meanVolume,
    meanSpread,
    atrPct() {
      const t = tail(15);
      let s = 0;
      for (let i = 1; i < t.length; i++) {
        const b = t[i];
        const p = t[i - 1];
        if (!b || !p) continue;
        s += Math.max(b.high - b.low, Math.abs(b.high - p.close), Math.abs(b.low - p.close));
      }
      return t.length > 1 ? s / (t.length - 1) / lastClose : o.baseSpread;
    },
    quiet(target, q = {}) {
      const prev = lastClose;
      const noisy = !q.calm && bars.length >= 20;
      const spike = noisy && (o.spikeProb ?? 0) > 0 && rng.next() < (o.spikeProb ?? 0);
      const gap = noisy && (o.gapProb ?? 0) > 0 && rng.next() < (o.gapProb ?? 0);
      let c = target * (1 + o.noise * gauss(rng, 2));
      if (spike) c *= 1 + (rng.next() < 0.5 ? -1 : 1) * o.baseSpread * uniform(rng, 0.4, 1.0);
      let op = gap
        ? prev * (1 + (rng.next() < 0.5 ? -1 : 1) * uniform(rng, 0.008, 0.025))
        : prev * (1 + 0.3 * o.noise * gauss(rng, 2));
      let range = o.baseSpread * c * (q.spreadMul ?? 1) * uniform(rng, 0.75, 1.2);
      if (bars.length >= 20) range = Math.min(range, 1.25 * meanSpread());
      if (spike) range = meanSpread() * uniform(rng, 1.0, 1.8);
      const top = Math.max(op, c);
      const bot = Math.min(op, c);
      if (top - bot > range) range = (top - bot) * 1.1;
      const extra = range - (top - bot);
      const u = uniform(rng, 0.25, 0.75);
      let h = top + extra * u;
      let l = bot - extra * (1 - u);
      if (q.maxHigh !== undefined && h > q.maxHigh) {
        const d = h - q.maxHigh;
        h -= d;
        l -= d;
        c -= d;
        op -= d;
      }
      if (q.minLow !== undefined && l < q.minLow) {
        const d = q.minLow - l;
        h += d;
        l += d;
        c += d;
        op += d;
        if (q.maxHigh !== undefined && h > q.maxHigh) {
          h = q.maxHigh;
          c = Math.min(c, h);
          op = Math.min(op, h);
        }
      }
      let v = o.baseVolume * (q.volMul ?? 1) * Math.exp(o.volSigma * gauss(rng, 3));
      if (bars.length >= 20 && Number.isFinite(o.quietVrCap)) v = Math.min(v, o.quietVrCap * meanVolume());
      if (spike) v = meanVolume() * uniform(rng, 1.5, 2.5);
      return append({ open: op, high: h, low: l, close: c, volume: Math.max(v, 0.2 * o.baseVolume) });
    },
    shaped(b) {
      return append({ open: b.open, high: b.high, low: b.low, close: b.close, volume: b.vr * meanVolume() });
    },
    path(to, n, q) {
      const from = lastClose;
      for (let k = 1; k <= n; k++) builder.quiet(from * (to / from) ** (k / n), q);
    },
  };
  return builder;
}
