/**
 * Seeded pseudo-random numbers for the synthetic generators (mulberry32). The core never calls
 * Math.random: callers pass an Rng so every series is reproducible from its seed.
 */

/** A source of uniform numbers in [0, 1). */
export interface Rng {
  next(): number;
}

/** mulberry32 seeded with a 32-bit integer. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Uniform in [lo, hi). */
export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng.next();
}

/** Integer uniform in [lo, hi] inclusive. */
export function intBetween(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng.next() * (hi - lo + 1));
}

/** Standard normal (Box–Muller), clipped to ±`clip`. */
export function gauss(rng: Rng, clip = 3): number {
  const u = Math.max(rng.next(), 1e-12);
  const v = rng.next();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(-clip, Math.min(clip, z));
}

/** Picks one item with the given weights. */
export function pick<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  let total = 0;
  for (const [, w] of items) total += w;
  let r = rng.next() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r <= 0) return item;
  }
  const last = items[items.length - 1];
  if (!last) throw new Error("pick from an empty list");
  return last[0];
}
