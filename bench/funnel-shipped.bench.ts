/**
 * The screening funnel from cache-format chunks in Node at 200 / 1,000 / 5,300 symbols × 320 bars
 * (chunk decode per batch of 100 as D1MarketCache does after its read, `screenFeatures`, `reduceFunnel`;
 * no D1 — bench/workers/market.bench.ts times it through real D1 in workerd): `funnel_Nx320_cpu_ms`
 * is the code bundled as `wrangler deploy` ships it (`?shipped`, bench/shipped-plugin.ts), the goal's
 * figure; `funnel_Nx320_module_runner_cpu_ms` the same funnel through vitest's module runner (every
 * source module's imported bindings read off namespace objects), alternating within each round.
 * Process CPU; 3 rounds after a warm-up.
 */
import { it } from "vitest";
import * as sourceFeatures from "../worker/background/screen-features";
import type { Universe } from "../worker/background/universe";
import * as sourceReduce from "../worker/engine/screen/reduce-funnel";
import * as sourceChunks from "../worker/lib/bar-chunks";
import type { CachedColumns } from "../worker/ports/market-data";
import { benchUniverse } from "./support/market-universe";
import { median, record, timing } from "./support/record";

const SHIPPED: string = "./shipped-funnel.ts?shipped";
const shipped = (await import(/* @vite-ignore */ SHIPPED)) as typeof sourceFeatures &
  typeof sourceReduce &
  typeof sourceChunks;
const SIM: Universe = {
  code: "SIM",
  engineMarket: "CN",
  index: "SIM.IDX1",
  smallCap: null,
  simulated: true,
  synced: false,
};
const SIZES = [200, 1000, 5300] as const;

function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

it("screening funnel from cached chunks, shipped bundle against the module runner, 200 / 1,000 / 5,300 × 320", async () => {
  const { u, chunks } = (() => {
    const full = benchUniverse(5300, 320);
    const rows = new Map(
      full.symbols.map((s, i) => [s.id, sourceChunks.encodeBarChunks(full.bars[i] ?? []).map((c) => c.bars)]),
    );
    return { u: { symbols: full.symbols, index: full.index }, chunks: rows };
  })();
  const variants = [
    ["shipped", shipped],
    ["module_runner", { ...sourceFeatures, ...sourceReduce, ...sourceChunks }],
  ] as const;
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < 4; round++)
    for (const n of SIZES)
      for (const [name, m] of round % 2 === 0 ? variants : [...variants].reverse()) {
        const cache = {
          getColumnsMany: async (ids: readonly string[], lastBars?: number): Promise<CachedColumns[]> =>
            m
              .decodeBarColumnsMany(
                ids.map((id) => chunks.get(id) ?? []),
                lastBars,
              )
              .map((columns, i) => ({ symbolId: ids[i] ?? "", columns })),
        };
        const symbols = u.symbols.slice(0, n);
        const c0 = process.cpuUsage();
        const features = [];
        for (let i = 0; i < n; i += 100)
          features.push(...(await m.screenFeatures(cache, symbols.slice(i, i + 100), SIM, u.index)));
        const scanned = m.reduceFunnel(features, { limit: 12, index: u.index }).summary.total_scanned;
        const spent = cpuMs(c0);
        if (scanned !== n) throw new Error(`${name}: scanned ${scanned} of ${n}`);
        if (round > 0) cpu.set(`${name}_${n}`, [...(cpu.get(`${name}_${n}`) ?? []), spent]);
      }
  const perSymbol = (n: number) => median(cpu.get(`shipped_${n}`) ?? []) / n;
  for (const n of SIZES) {
    record({
      id: `funnel_${n}x320_cpu_ms`,
      name: `screening funnel L0–L5 from cached chunks, ${n} × 320 bars, shipped bundle (Node CPU)`,
      ...timing(cpu.get(`shipped_${n}`) ?? []),
      unit: "ms",
      ...(n === 5300 ? { goal: 500 } : {}),
      ...(n > SIZES[0] ? { growth: { ratio: perSymbol(n) / perSymbol(SIZES[0]), vs: `${SIZES[0]}, per symbol` } } : {}),
      timed: `process CPU of one funnel run (chunk decode per batch of 100 + screenFeatures + reduceFunnel, in memory, no D1), the modules bundled by esbuild as shipped; 3 rounds after a warm-up, alternating with the module-runner run`,
    });
    record({
      id: `funnel_${n}x320_module_runner_cpu_ms`,
      name: `screening funnel L0–L5 from cached chunks, ${n} × 320 bars, vitest's module runner (Node CPU)`,
      ...timing(cpu.get(`module_runner_${n}`) ?? []),
      unit: "ms",
      timed: `process CPU of the same funnel run through vitest's module runner, alternating with the shipped bundle`,
    });
    record({
      id: `funnel_node_module_runner_ratio_${n}`,
      name: `module runner / shipped bundle, funnel from chunks in Node, ${n} symbols`,
      value:
        Math.round((median(cpu.get(`module_runner_${n}`) ?? []) / median(cpu.get(`shipped_${n}`) ?? [])) * 100) / 100,
      unit: "x",
      timed: "median CPU through vitest's module runner / median CPU of the shipped bundle, same rounds, alternating",
    });
  }
});
