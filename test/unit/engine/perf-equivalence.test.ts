/**
 * Results stay identical under the performance work: the screening funnel (features digest and the
 * full reduce outcome), backtests (every metric, NAV and trade list) and `analyze()` outputs on fixed
 * seeded universes equal the golden file captured from the straightforward implementation.
 * `UPDATE_PERF_GOLDEN=1` rewrites the file (only when a change of results is intended).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { computeGolden, digest } from "./perf-golden";

const FILE = path.resolve(import.meta.dirname, "perf-golden.json");

describe("performance equivalence with the golden outputs", () => {
  it("screening, backtests and analyze() are unchanged", async () => {
    const raw = await computeGolden();
    // Trade lists and NAV curves are compared by digest (the metrics stay readable in the file).
    const backtests = Object.fromEntries(
      Object.entries(raw.backtests).map(([k, r]) => [k, r && { ...r, trade_list: digest(r.trade_list), nav: digest(r.nav) }]),
    );
    const now = JSON.parse(JSON.stringify({ ...raw, backtests })) as typeof raw;
    if (process.env.UPDATE_PERF_GOLDEN) writeFileSync(FILE, `${JSON.stringify(now, null, 1)}\n`);
    const golden = JSON.parse(readFileSync(FILE, "utf8")) as typeof now;
    expect(now.analyze).toEqual(golden.analyze);
    expect(now.screening.walk.outcome).toEqual(golden.screening.walk.outcome);
    expect(now.screening.sim.outcome).toEqual(golden.screening.sim.outcome);
    expect(now.screening.walk.featuresDigest).toBe(golden.screening.walk.featuresDigest);
    expect(now.screening.sim.featuresDigest).toBe(golden.screening.sim.featuresDigest);
    for (const key of Object.keys(golden.backtests)) expect(now.backtests[key], key).toEqual(golden.backtests[key]);
    expect(Object.keys(now.backtests).sort()).toEqual(Object.keys(golden.backtests).sort());
  }, 300_000);
});
