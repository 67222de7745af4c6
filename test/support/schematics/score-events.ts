/**
 * Scores detected events against a schematic's answer key: one-to-one matching by type within
 * ±tolerance bars, accumulated into per-type true/false positives and negatives.
 */
import type { EventType } from "../../../worker/contracts/analysis";
import type { SchematicLabel } from "../../../worker/engine/sim/schematics";

/** A detected event reduced to what scoring needs. */
export interface Detected {
  type: EventType;
  index: number;
}

/** Per-type counts. */
export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

/** Adds one series' matches into `tallies`; returns the unmatched labels and detections. */
export function scoreEvents(
  labels: readonly SchematicLabel[],
  detected: readonly Detected[],
  tallies: Map<EventType, Tally>,
  tolerance = 2,
): { missed: SchematicLabel[]; spurious: Detected[] } {
  const used = new Set<number>();
  const missed: SchematicLabel[] = [];
  for (const l of labels) {
    let best = -1;
    let bestDist = Number.POSITIVE_INFINITY;
    detected.forEach((d, k) => {
      if (used.has(k) || d.type !== l.type) return;
      const dist = Math.abs(d.index - l.index);
      if (dist <= tolerance && dist < bestDist) {
        best = k;
        bestDist = dist;
      }
    });
    const t = tallies.get(l.type) ?? { tp: 0, fp: 0, fn: 0 };
    if (best >= 0) {
      used.add(best);
      t.tp++;
    } else {
      t.fn++;
      missed.push(l);
    }
    tallies.set(l.type, t);
  }
  const spurious: Detected[] = [];
  detected.forEach((d, k) => {
    if (used.has(k)) return;
    const t = tallies.get(d.type) ?? { tp: 0, fp: 0, fn: 0 };
    t.fp++;
    tallies.set(d.type, t);
    spurious.push(d);
  });
  return { missed, spurious };
}

/** Recall and precision of a tally (NaN when undefined). */
export function rates(t: Tally): { recall: number; precision: number } {
  return { recall: t.tp / (t.tp + t.fn), precision: t.tp / (t.tp + t.fp) };
}
