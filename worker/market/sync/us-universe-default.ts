/**
 * The bundled default US universe: the S&P 500 constituents (503 share classes of 500 companies) with
 * each one's GICS sector, which the sync stores as its industry (the funnel's L3 sector layer).
 *
 * Source: the public dataset `datasets/s-and-p-500-companies` (GitHub, `data/constituents.csv`,
 * commit 56509dd, updated 2026-08-08; licence ODC-PDDL-1.0), which the dataset builds from Wikipedia's
 * "List of S&P 500 companies". Columns kept: Symbol, Security, GICS Sector. Index membership changes a
 * few times a quarter: a deployment overrides the list with the `US_UNIVERSE` setting (README), and
 * the data file below is refreshed from the same source (same columns, sorted by symbol).
 *
 * The list itself is the data file `us-universe-constituents.json`: one `SYMBOL|Name|Sector` entry per
 * constituent (parse/us-universe-list.ts reads them as lines); symbols as the exchanges write them
 * (`BRK.B`; the parser turns them into Yahoo's `BRK-B`).
 */
import constituents from "./us-universe-constituents.json";

/** Where the default list comes from, and as of when. */
export const US_UNIVERSE_DEFAULT_SOURCE =
  "S&P 500 constituents, datasets/s-and-p-500-companies data/constituents.csv @ 56509dd (2026-08-08), from Wikipedia's List of S&P 500 companies";

/** The default list. */
export const US_UNIVERSE_DEFAULT = `${constituents.join("\n")}\n`;
