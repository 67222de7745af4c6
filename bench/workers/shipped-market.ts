/**
 * What the market benches time, as one entry: imported with `?shipped` (bench/workers/vitest.config.ts)
 * it is bundled by esbuild into one module, as `wrangler deploy` ships the worker.
 */
export { screenFeatures } from "../../worker/background/screen-features";
export { reduceFunnel } from "../../worker/engine/screen/reduce-funnel";
export { decodeBarColumnsMany } from "../../worker/lib/bar-chunks";
export { createDb } from "../../worker/storage/db";
export { D1MarketCache } from "../../worker/storage/market-cache-repo";
export { forgetLoadedSnapshots, MarketSnapshots } from "../../worker/storage/market-snapshot-repo";
