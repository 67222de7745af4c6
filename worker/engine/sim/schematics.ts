/**
 * Seeded synthetic Wyckoff schematics: accumulation, re-accumulation, distribution, re-distribution
 * and failed variants, in US and A-share flavours, with the exact bar of every labelled event.
 * By default quiet bars carry realistic noise (lognormal volume, 1.5–2.5× spikes, gaps, CN limit
 * moves in trends); `noise: "clean"` gives the capped, spike-free series of the first version.
 */
import type { Bar, Board, Market, PhaseName } from "../../contracts/analysis";
import { accumulation } from "./accumulation";
import { createBarBuilder } from "./bar-builder";
import { distribution } from "./distribution";
import { reaccumulation, redistribution } from "./re-schematics";
import { pick, type Rng, uniform } from "./rng";
import type { Ctx, SchematicLabel } from "./schematic-context";

export type { SchematicLabel } from "./schematic-context";

/** Kinds of schematic the generator draws. */
export type SchematicKind =
  | "accumulation"
  | "distribution"
  | "failed_accumulation"
  | "failed_distribution"
  | "reaccumulation"
  | "redistribution";

/** Every kind, in a stable order (tests cycle through it). */
export const SCHEMATIC_KINDS: readonly SchematicKind[] = [
  "accumulation",
  "distribution",
  "failed_accumulation",
  "failed_distribution",
  "reaccumulation",
  "redistribution",
];

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

/** How noisy quiet bars are: `realistic` (default) or the capped `clean` series. */
export type SchematicNoise = "realistic" | "clean";

/** Generator options. */
export interface SchematicOptions {
  kind: SchematicKind;
  market: Market;
  rng: Rng;
  board?: Board;
  /** Default `realistic`. */
  noise?: SchematicNoise;
  /** @deprecated use `noise`; `false` means `clean`, `true` means `realistic`. */
  noisy?: boolean;
}

const SCALE: Record<Board, number> = { main: 1, chinext: 1.2, star: 1.4, bse: 1.2 };

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
  const realistic = (o.noise ?? (o.noisy === false ? "clean" : "realistic")) === "realistic";
  const b = createBarBuilder({
    rng,
    startPrice: cn ? uniform(rng, 6, 40) : uniform(rng, 20, 160),
    startDate: cn ? "2023-01-03" : "2022-06-01",
    baseVolume: cn ? uniform(rng, 1e7, 6e7) : uniform(rng, 1e6, 8e6),
    baseSpread: cn ? uniform(rng, 0.022, 0.03) : uniform(rng, 0.018, 0.026),
    noise: 0.006,
    volSigma: realistic ? 0.3 : 0.2,
    quietVrCap: realistic ? Number.POSITIVE_INFINITY : 1.3,
    spikeProb: realistic ? 0.03 : 0,
    gapProb: realistic ? 0.02 : 0,
  });
  const c: Ctx = { b, rng, scale: cn ? SCALE[board] : 1, board, market: o.market, labels: [], frozen: [], realistic };
  switch (o.kind) {
    case "accumulation":
    case "failed_accumulation":
      accumulation(c, o.kind === "failed_accumulation");
      break;
    case "distribution":
    case "failed_distribution":
      distribution(c, o.kind === "failed_distribution");
      break;
    case "reaccumulation":
      reaccumulation(c);
      break;
    case "redistribution":
      redistribution(c);
      break;
  }
  const up = o.kind === "accumulation" || o.kind === "failed_distribution" || o.kind === "reaccumulation";
  return {
    kind: o.kind,
    market: o.market,
    board,
    bars: b.bars,
    labels: c.labels,
    finalPhase: up ? "MARKUP" : "MARKDOWN",
    frozen: c.frozen,
  };
}
