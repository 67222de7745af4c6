/**
 * What funnel-shipped.bench.ts times, as one entry: imported with `?shipped` (bench/shipped-plugin.ts)
 * it is bundled by esbuild into one module, as `wrangler deploy` ships the worker.
 */
export { screenFeatures } from "../worker/background/screen-features";
export { reduceFunnel } from "../worker/engine/screen/reduce-funnel";
export { decodeBarColumnsMany } from "../worker/lib/bar-chunks";
