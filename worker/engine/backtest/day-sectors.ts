/**
 * L3 sector resonance on a day's columns (the single-call backtest, unique symbol ids): the verdict
 * `sectorResonance` (screen/sector-resonance.ts) gives, computed from the L2 passers' sector numbers
 * and strengths in their order, without a member object or a key per passer, and answered only for
 * the few passers the day's candidates need. The same standings in the same order (sectors by first
 * appearance), the same medians (`median` over each sector's strengths in member order), the same
 * quantiles and ranking; with unique keys the passed set's size is the number of passing members.
 * day-sectors.test.ts holds it to `sectorResonance`.
 */
import { median, quantileOf } from "../numeric";

/** Scratch (grown on demand; each call is synchronous, so one set serves all). */
let seen = new Int32Array(64);
let memberCount = new Int32Array(64);
let keptOf = new Uint8Array(64);
let topOf = new Uint8Array(64);

/** Which L2 passers pass L3: `passes(j)` for member j. */
export interface DaySectors {
  passes(j: number): boolean;
}

/**
 * The L3 verdict over `m` members: member j is in sector `sectorOf[j]` (a number below `sectors`)
 * with strength `strength[j]`; `l1Count[k]` is sector k's L1 passers (≥ its members).
 */
export function daySectors(
  m: number,
  sectorOf: Int32Array,
  strength: Float64Array,
  l1Count: Int32Array,
  sectors: number,
): DaySectors {
  if (seen.length < sectors) {
    const size = Math.max(sectors, 2 * seen.length);
    seen = new Int32Array(size);
    memberCount = new Int32Array(size);
    keptOf = new Uint8Array(size);
    topOf = new Uint8Array(size);
  }
  memberCount.fill(0, 0, sectors);
  keptOf.fill(0, 0, sectors);
  topOf.fill(0, 0, sectors);
  // Standings in the order sectors first appear among the members (a Map's insertion order).
  const order: number[] = [];
  for (let j = 0; j < m; j++) {
    const k = sectorOf[j] as number;
    if (memberCount[k] === 0) order.push(k);
    memberCount[k] = (memberCount[k] as number) + 1;
  }
  const lists: number[][] = order.map(() => []);
  for (let i = 0; i < order.length; i++) seen[order[i] as number] = i;
  for (let j = 0; j < m; j++) (lists[seen[sectorOf[j] as number] as number] as number[]).push(strength[j] as number);
  const counts = order.map((k) => memberCount[k] as number);
  const ratios = order.map((k, i) => (counts[i] as number) / Math.max(1, l1Count[k] ?? 0));
  const strengths = lists.map((list) => median(list));
  const qCount = Math.max(3, Math.ceil(quantileOf(counts, 0, counts.length, 0.7)));
  const qRatio = quantileOf(ratios, 0, ratios.length, 0.7);
  const qStrength = quantileOf(strengths, 0, strengths.length, 0.7);
  const qSuper = quantileOf(strengths, 0, strengths.length, 0.9);
  const kept: number[] = [];
  for (let i = 0; i < order.length; i++) {
    const count = counts[i] as number;
    const s = strengths[i] as number;
    const normal = count >= qCount && (ratios[i] as number) >= qRatio && s >= qStrength;
    if (normal || (count >= 3 && s >= qSuper)) {
      keptOf[order[i] as number] = 1;
      kept.push(i);
    }
  }
  // The top five kept sectors by strength, ties in standing order (a stable sort, as the ranking's).
  kept.sort((a, b) => (strengths[b] as number) - (strengths[a] as number));
  for (const i of kept.slice(0, 5)) topOf[order[i] as number] = 1;
  const passes = (j: number): boolean => {
    const k = sectorOf[j] as number;
    const s = strength[j] as number;
    return topOf[k] === 1 || (keptOf[k] === 1 && s >= 0.6) || s >= 0.8;
  };
  let passed = 0;
  for (let j = 0; j < m && passed < 3; j++) if (passes(j)) passed++;
  if (passed < 3) return { passes: () => true };
  return { passes };
}
