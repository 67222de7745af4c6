/**
 * Pure helpers of the chart page: weekly bars from daily ones (a week = Monday–Sunday, the bar dated
 * by its last trading day), moving averages, the date of the week a daily date falls in, and which
 * event labels fit without colliding at a given bar spacing.
 */
import type { Bar } from "@contracts/analysis";

/** The Monday (YYYY-MM-DD, UTC) of the week holding `date`. */
export function weekOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
}

/** Weekly bars (oldest first), each dated by the last trading day of its week. */
export function weeklyBars(bars: readonly Bar[]): Bar[] {
  const out: Bar[] = [];
  let key = "";
  for (const b of bars) {
    const k = weekOf(b.date);
    const cur = out.at(-1);
    if (cur && k === key) {
      cur.high = Math.max(cur.high, b.high);
      cur.low = Math.min(cur.low, b.low);
      cur.close = b.close;
      cur.volume += b.volume;
      cur.date = b.date;
    } else {
      key = k;
      out.push({ date: b.date, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume });
    }
  }
  return out;
}

/** For each daily date, the date of its weekly bar. */
export function weekBarDates(weekly: readonly Bar[]): Map<string, string> {
  return new Map(weekly.map((b) => [weekOf(b.date), b.date]));
}

/** Simple moving average of closes; null until `n` bars are in. */
export function movingAverage(
  bars: readonly Pick<Bar, "date" | "close">[],
  n: number,
): { date: string; value: number }[] {
  const out: { date: string; value: number }[] = [];
  let sum = 0;
  bars.forEach((b, i) => {
    sum += b.close;
    if (i >= n) sum -= bars[i - n]?.close ?? 0;
    if (i >= n - 1) out.push({ date: b.date, value: Math.round((sum / n) * 1000) / 1000 });
  });
  return out;
}

/**
 * Which markers keep their text: going oldest first on each side of the bars, a label is kept when it
 * starts past the end of the last kept one (label width ≈ 6.5 px per character at 11 px). Markers
 * whose text is dropped still show their arrow; the hover readout names them.
 */
export function labelsThatFit(
  markers: readonly { time: string; label: string; position: string }[],
  barIndex: ReadonlyMap<string, number>,
  barSpacingPx: number,
): boolean[] {
  const end = new Map<string, number>();
  return markers.map((m) => {
    const i = barIndex.get(m.time);
    if (i === undefined) return false;
    const x = i * barSpacingPx;
    const half = (m.label.length * 6.5) / 2;
    const last = end.get(m.position) ?? -Infinity;
    if (x - half < last) return false;
    end.set(m.position, x + half + 4);
    return true;
  });
}
