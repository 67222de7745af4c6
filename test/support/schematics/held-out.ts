/**
 * The generator's seeds split in two: seeds 1…n tune the rules (the schematics unit test draws
 * them), seeds 100001… are held out and only reported (`npm run truth`); kinds cycle by seed either way. Scored like the schematics unit test (±2 bars at the labelled bar).
 */
import type { EventType } from "../../../worker/contracts/analysis";
import { analyze } from "../../../worker/engine/analyze";
import type { EngineParams } from "../../../worker/engine/params";
import { createRng } from "../../../worker/engine/sim/rng";
import { generateSchematic, SCHEMATIC_KINDS } from "../../../worker/engine/sim/schematics";
import { rates, scoreEvents, type Tally } from "./score-events";

const GOAL_TYPES: readonly EventType[] = ["SC", "BC", "AR", "ST", "Spring", "UTAD", "SOS", "SOW"];

export type SeedHalf = "tuning" | "held-out";

export interface SyntheticRow {
  type: EventType;
  labels: number;
  found: number;
  recall: number;
  precision: number;
  goal: boolean;
}

export interface SyntheticScore {
  half: SeedHalf;
  seeds: number;
  rows: SyntheticRow[];
}

/** First seed of the held-out half. */
export const HELD_OUT_FROM = 100_001;

/** Seeds of a half, `n` of them: tuning 1…n, held-out 100001…. */
export function seedsOf(half: SeedHalf, n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + (half === "tuning" ? 1 : HELD_OUT_FROM));
}

/** Scores `n` seeds of one half. */
export function scoreSynthetic(half: SeedHalf, n = 240, params?: Partial<EngineParams>): SyntheticScore {
  const tallies = new Map<EventType, Tally>();
  for (const seed of seedsOf(half, n)) {
    const x = generateSchematic({
      kind: SCHEMATIC_KINDS[seed % SCHEMATIC_KINDS.length] ?? "accumulation",
      market: seed % 3 === 0 ? "CN" : "US",
      rng: createRng(seed),
    });
    const r = analyze(x.bars, { symbol: "SYNTH", market: x.market, board: x.board, ...(params ? { params } : {}) });
    if (!r.ok) throw new Error(r.error.message);
    const idx = new Map(x.bars.map((b, i) => [b.date, i]));
    scoreEvents(
      x.labels,
      r.value.events.map((e) => ({ type: e.type, index: idx.get(e.date) ?? -1 })),
      tallies,
    );
  }
  const rows = [...tallies]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([type, t]) => ({
      type,
      labels: t.tp + t.fn,
      found: t.tp + t.fp,
      ...rates(t),
      goal: GOAL_TYPES.includes(type) && t.tp + t.fn > 0,
    }));
  return { half, seeds: n, rows };
}

/** Printable table. */
export function formatSynthetic(s: SyntheticScore): string {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "  -  ");
  return [
    `synthetic (generator), ${s.half} seeds × ${s.seeds}, ±2 bars`,
    "type    labels  found  recall  precision",
    ...s.rows.map(
      (r) =>
        `${r.type.padEnd(7)} ${String(r.labels).padStart(6)} ${String(r.found).padStart(6)}  ${f(r.recall)}   ${f(r.precision)}${r.goal ? "" : "  (not a goal type)"}`,
    ),
  ].join("\n");
}
