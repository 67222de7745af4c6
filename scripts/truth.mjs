/**
 * `npm run truth`: scores the engine on the labelled real episodes (test/fixtures/episodes/) and on
 * the generator's held-out seeds, prints both tables (real and synthetic figures kept apart) and
 * merges them into bench/results.json under `truth` (read-modify-write: other figures stay).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(path.join(tmpdir(), "wyckoff-truth-"));
const file = path.join(work, "truth.json");
const vitest = path.join(root, "node_modules", ".bin", "vitest");
const r = spawnSync(vitest, ["run", "--project", "golden", "test/golden/engine/real-episodes.test.ts"], {
  cwd: root,
  env: { ...process.env, TRUTH_OUT: file },
  stdio: ["ignore", "inherit", "inherit"],
});
if (!existsSync(file)) {
  console.error("truth: the scoring run wrote no figures");
  process.exit(1);
}
const t = JSON.parse(readFileSync(file, "utf8"));
rmSync(work, { recursive: true, force: true });

const f = (x) => (typeof x === "number" && Number.isFinite(x) ? x.toFixed(3) : "-");
console.log("\nREAL MARKETS (labelled episodes; S&P 500 + A-share indices):");
if (t.real) {
  console.table(
    Object.entries(t.real.byGroup).map(([group, c]) => ({
      group,
      labels: c.labels,
      hits: c.hits,
      recall: f(c.recall),
      detected: c.detected,
      matched: c.matched,
      precision: f(c.precision),
    })),
  );
  console.table(
    t.real.episodes.map((e) => ({
      episode: e.id,
      recall: `${e.counts.hits}/${e.counts.labels}`,
      precision: `${e.counts.matched}/${e.counts.detected}`,
      wrongSide: `${e.sideViolations.length}/${e.sideChecks}`,
    })),
  );
  console.log(`wrong-side phases: ${t.real.sideViolations} of ${t.real.sideChecks} point-in-time readings`);
  // What to read against the bars next: each episode's missed labels, unmatched events and wrong-side readings.
  console.log(
    "\nper episode: missed labels | unmatched events | events matched by an overlapping episode's label | wrong-side readings (first 3)",
  );
  for (const e of t.real.episodes) {
    const elsewhere = e.matchedElsewhere ?? [];
    if (!e.missed.length && !e.spurious.length && !elsewhere.length && !e.sideViolations.length) continue;
    const side = e.sideViolations.length
      ? `${e.sideViolations.length}: ${e.sideViolations.slice(0, 3).join(", ")}`
      : "-";
    console.log(
      `${e.id}\n  missed: ${e.missed.join(", ") || "-"}\n  unmatched: ${e.spurious.join(", ") || "-"}${elsewhere.length ? `\n  matched elsewhere: ${elsewhere.join(", ")}` : ""}\n  wrong side: ${side}`,
    );
  }
}
console.log("\nSYNTHETIC (this project's generator; held-out seeds 100001…, never used for tuning):");
if (t.synthetic)
  console.table(
    t.synthetic.rows.map((x) => ({
      type: x.type,
      labels: x.labels,
      found: x.found,
      recall: f(x.recall),
      precision: f(x.precision),
    })),
  );

const resultsFile = path.join(root, "bench", "results.json");
const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, "utf8")) : {};
results.truth = {
  real: t.real
    ? {
        source: "real daily bars: S&P 500 (vega-datasets) and A-share indices (hqchart@1.1.15808)",
        byGroup: t.real.byGroup,
        total: t.real.total,
        sideViolations: t.real.sideViolations,
        sideChecks: t.real.sideChecks,
        episodes: t.real.episodes.map((e) => ({ id: e.id, ...e.counts, wrongSide: e.sideViolations.length })),
      }
    : null,
  synthetic: t.synthetic
    ? { source: "generated schematics (worker/engine/sim), held-out seeds", ...t.synthetic }
    : null,
};
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log("merged figures into bench/results.json (truth)");
process.exit(r.status ?? 1);
