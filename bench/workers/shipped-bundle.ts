/**
 * The market benches' timed code as it ships: shipped-market.ts imported with `?shipped` (the plugin
 * in bench/shipped-plugin.ts bundles it with esbuild, as `wrangler deploy` does). One import for
 * every bench file, so each isolate holds one copy of the bundle and its module state.
 */
import type * as Entry from "./shipped-market";

const SHIPPED: string = "./shipped-market.ts?shipped";

/** The bundle's exports, typed as the source entry declares them. */
export type ShippedMarket = typeof Entry;

export const shipped = (await import(/* @vite-ignore */ SHIPPED)) as ShippedMarket;
