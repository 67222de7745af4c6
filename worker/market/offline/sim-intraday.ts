/**
 * Simulated intraday session for a simulated daily bar: a seeded path from open to close that
 * touches the day's high and low, with the U-shaped volume profile of A-share sessions (09:30–11:30,
 * 13:00–15:00). Only ever used for `SIM` symbols, and labelled simulated.
 */
import type { Bar } from "../../contracts/analysis";
import type { MinuteBar } from "../../contracts/market";
import { createRng, gauss } from "../../engine/sim/rng";
import { round } from "../parse/numbers";

function minutesOfSession(): string[] {
  const out: string[] = [];
  const add = (from: number, to: number): void => {
    for (let m = from + 1; m <= to; m++)
      out.push(`${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);
  };
  add(9 * 60 + 30, 11 * 60 + 30);
  add(13 * 60, 15 * 60);
  return out;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Minute bars (1-minute, then aggregated to `interval`) for `day` of simulated symbol `symbolId`. */
export function simulateSession(symbolId: string, day: Bar, interval: number): MinuteBar[] {
  const times = minutesOfSession();
  const n = times.length;
  const rng = createRng(hash(`${symbolId}|${day.date}`));
  const hiAt = 1 + Math.floor(rng.next() * (n - 2));
  let loAt = 1 + Math.floor(rng.next() * (n - 2));
  if (loAt === hiAt) loAt = hiAt > 1 ? hiAt - 1 : hiAt + 1;
  // Anchors: open at 0, high and low at their minutes, close at the end; noisy linear pieces between.
  const anchors = [
    [0, day.open],
    [hiAt, day.high],
    [loAt, day.low],
    [n - 1, day.close],
  ].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)) as [number, number][];
  const path = new Array<number>(n).fill(day.open);
  for (let k = 0; k + 1 < anchors.length; k++) {
    const [i0, p0] = anchors[k] ?? [0, day.open];
    const [i1, p1] = anchors[k + 1] ?? [n - 1, day.close];
    for (let i = i0; i <= i1; i++) {
      const t = i1 === i0 ? 1 : (i - i0) / (i1 - i0);
      const noise = (day.high - day.low) * 0.04 * gauss(rng, 2) * Math.sin(Math.PI * t);
      path[i] = Math.min(day.high, Math.max(day.low, p0 + (p1 - p0) * t + noise));
    }
  }
  const weights = times.map((_, i) => {
    const x = i / (n - 1);
    return (0.6 + 2.2 * (x - 0.5) ** 2 * 4) * Math.exp(0.25 * gauss(rng, 2));
  });
  const wsum = weights.reduce((a, b) => a + b, 0);
  const out: MinuteBar[] = [];
  for (let s = 0; s < n; s += interval) {
    const e = Math.min(n, s + interval);
    let hi = -Infinity;
    let lo = Infinity;
    let vol = 0;
    for (let i = s; i < e; i++) {
      const prev = i === 0 ? day.open : (path[i - 1] ?? day.open);
      const cur = path[i] ?? day.open;
      hi = Math.max(hi, prev, cur);
      lo = Math.min(lo, prev, cur);
      vol += (day.volume * (weights[i] ?? 0)) / wsum;
    }
    const open = s === 0 ? day.open : (path[s - 1] ?? day.open);
    const close = path[e - 1] ?? day.close;
    out.push({
      time: `${day.date} ${times[e - 1] ?? "15:00"}`,
      open: round(open, 2),
      high: round(hi, 2),
      low: round(lo, 2),
      close: round(close, 2),
      volume: Math.round(vol),
    });
  }
  return out;
}
