/**
 * The funnel read from stored chunks is the funnel over the bars: each golden universe's series is
 * encoded as the D1 cache stores it (lib/bar-chunks.ts; v2, and v1 JSON for rows written before),
 * read back per batch of 100 through `decodeBarColumnsMany` into `screenFeatures`, and the features
 * digest and the reduce outcome equal the golden file's (perf-golden.json, computed from bar objects).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { screenFeatures } from "../../../worker/background/screen-features";
import type { Universe } from "../../../worker/background/universe";
import { reduceFunnel } from "../../../worker/engine/screen/reduce-funnel";
import { decodeBarColumnsMany, encodeBarChunks, encodeBarChunksV1 } from "../../../worker/lib/bar-chunks";
import { encodeMarketSnapshot, MarketSnapshot } from "../../../worker/lib/market-snapshot";
import type { BarColumns } from "../../../worker/engine/series";
import type { MarketCache } from "../../../worker/ports/market-data";
import { digest, simUniverse, walkUniverse, type GoldenUniverse } from "./perf-golden";

const golden = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "perf-golden.json"), "utf8")) as {
  screening: Record<"walk" | "sim", { featuresDigest: string; outcome: unknown }>;
};
const UNIVERSE: Universe = { code: "CN", engineMarket: "CN", index: "SH.000001", smallCap: null, simulated: false };

/** The chunks' reader: each series' rows decoded per batch. */
function chunkCache(u: GoldenUniverse, encode: typeof encodeBarChunks): Pick<MarketCache, "getColumnsMany"> {
  const texts = new Map(u.symbols.map((s) => [s.meta.id, encode(s.bars).map((c) => c.bars)]));
  return {
    getColumnsMany: async (ids, lastBars) =>
      decodeBarColumnsMany(
        ids.map((id) => texts.get(id) ?? []),
        lastBars,
      ).map((columns, i) => ({ symbolId: ids[i] ?? "", columns })),
  };
}

/** The whole-market snapshot's reader: the universe's chunks (v2) built into one snapshot, read back per batch. */
function snapshotCache(u: GoldenUniverse): Pick<MarketCache, "getColumnsMany"> {
  const columns: BarColumns[] = decodeBarColumnsMany(u.symbols.map((s) => encodeBarChunks(s.bars).map((c) => c.bars)));
  const bytes = encodeMarketSnapshot(
    { market: "CN", asOf: "", runId: null, generation: 1 },
    u.symbols.map((s, i) => ({
      symbolId: s.meta.id,
      adjust: "qfq" as const,
      origin: "eastmoney" as const,
      fetchedAt: 0,
      simulated: false,
      columns: columns[i] as BarColumns,
    })),
  );
  const snap = MarketSnapshot.parse(new Uint8Array(bytes));
  if (!snap) throw new Error("snapshot did not parse");
  return {
    getColumnsMany: async (ids, lastBars) =>
      snap.columnsMany(ids, lastBars).map((s) => ({ symbolId: s.symbolId, columns: s.columns })),
  };
}

async function screenFromChunks(u: GoldenUniverse, cache: Pick<MarketCache, "getColumnsMany">) {
  const symbols = u.symbols.map((s) => ({
    id: s.meta.id,
    name: s.meta.name,
    industry: s.meta.industry,
    board: s.meta.board,
  }));
  const feats = [];
  for (let i = 0; i < symbols.length; i += 100)
    feats.push(...(await screenFeatures(cache, symbols.slice(i, i + 100), UNIVERSE, u.index)));
  const outcome = reduceFunnel(feats, {
    limit: 12,
    index: u.index.slice(-320),
    ...(u.smallCap ? { smallCap: u.smallCap.slice(-320) } : {}),
  });
  return { featuresDigest: digest(feats), outcome: JSON.parse(JSON.stringify(outcome)) as unknown };
}

describe("the funnel from stored chunks equals the golden funnel over bars", () => {
  const universes = { walk: walkUniverse(400, 570, 20261129), sim: simUniverse(300, 340, 20260630) };
  for (const [key, u] of Object.entries(universes) as ["walk" | "sim", GoldenUniverse][])
    for (const [label, encode] of [
      ["v2", encodeBarChunks],
      ["v1", encodeBarChunksV1],
    ] as const)
      it(`${key} universe, ${label} rows`, async () => {
        const got = await screenFromChunks(u, chunkCache(u, encode));
        expect(got.outcome).toEqual(golden.screening[key].outcome);
        expect(got.featuresDigest).toBe(golden.screening[key].featuresDigest);
      }, 300_000);
  for (const [key, u] of Object.entries(universes) as ["walk" | "sim", GoldenUniverse][])
    it(`${key} universe, from the whole-market snapshot`, async () => {
      const got = await screenFromChunks(u, snapshotCache(u));
      expect(got.outcome).toEqual(golden.screening[key].outcome);
      expect(got.featuresDigest).toBe(golden.screening[key].featuresDigest);
    }, 300_000);
});
