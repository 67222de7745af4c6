/**
 * The engine on generated schematics: per-type recall and precision at the labelled bar (±2) on
 * realistic series (volume noise, spikes, gaps, A-share limit moves), point in time, scale
 * invariance, frozen bars. The recall table is written to test/.reports/ and quoted on failure.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AnalyzeRequest, type Bar, type EventType, type WyckoffEvent } from "../../../worker/contracts/analysis";
import { analyze, type AnalyzeOptions } from "../../../worker/engine/analyze";
import { createRng } from "../../../worker/engine/sim/rng";
import {
  generateSchematic,
  SCHEMATIC_KINDS,
  type Schematic,
  type SchematicNoise,
} from "../../../worker/engine/sim/schematics";
import { rates, scoreEvents, type Tally } from "../../support/schematics/score-events";

const KINDS = SCHEMATIC_KINDS;
const GOAL_TYPES: EventType[] = ["SC", "AR", "ST", "Spring", "SOS", "LPS", "BC", "UTAD", "SOW"];
const GOAL = 0.95;
const REPORT_DIR = path.resolve(import.meta.dirname, "../../.reports");

function draw(seed: number, noise: SchematicNoise = "realistic"): Schematic {
  return generateSchematic({
    kind: KINDS[seed % KINDS.length] ?? "accumulation",
    market: seed % 3 === 0 ? "CN" : "US",
    rng: createRng(seed),
    noise,
  });
}

function optionsFor(x: Schematic): AnalyzeOptions {
  return { symbol: "SYNTH", market: x.market, board: x.board };
}

function run(bars: readonly Bar[], x: Schematic) {
  const r = analyze(bars, optionsFor(x));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function indexOf(bars: readonly Bar[]): Map<string, number> {
  return new Map(bars.map((b, i) => [b.date, i]));
}

const strip = (e: WyckoffEvent) => ({
  type: e.type,
  date: e.date,
  confirmedAt: e.confirmedAt,
  volumeRatio: e.volumeRatio,
  confidence: e.confidence,
  variant: e.variant,
  reasons: e.reasons,
});

interface Evaluation {
  tallies: Map<EventType, Tally>;
  phaseOk: number;
  phaseMisses: string[];
}

function evaluate(seeds: number, noise: SchematicNoise): Evaluation {
  const tallies = new Map<EventType, Tally>();
  let phaseOk = 0;
  const phaseMisses: string[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const x = draw(seed, noise);
    const a = run(x.bars, x);
    const idx = indexOf(x.bars);
    scoreEvents(
      x.labels,
      a.events.map((e) => ({ type: e.type, index: idx.get(e.date) ?? -1 })),
      tallies,
    );
    if (a.phase.name === x.finalPhase) phaseOk++;
    else phaseMisses.push(`seed ${seed} ${x.kind}: ${a.phase.name} ≠ ${x.finalPhase}`);
  }
  return { tallies, phaseOk, phaseMisses };
}

function report(title: string, e: Evaluation, n: number): string {
  const lines = [title, "type    labels  found  recall  precision  goal"];
  for (const [type, t] of [...e.tallies].sort((a, b) => a[0].localeCompare(b[0]))) {
    const { recall, precision } = rates(t);
    const goal = GOAL_TYPES.includes(type) ? (recall >= GOAL && precision >= GOAL ? "met" : "MISSED") : "-";
    lines.push(
      `${type.padEnd(7)} ${String(t.tp + t.fn).padStart(6)} ${String(t.tp + t.fp).padStart(6)}  ${recall.toFixed(3)}   ${precision.toFixed(3)}      ${goal}`,
    );
  }
  lines.push(`final phase correct: ${e.phaseOk}/${n}`, ...e.phaseMisses.slice(0, 10));
  return lines.join("\n");
}

function writeReport(name: string, text: string): string {
  mkdirSync(REPORT_DIR, { recursive: true });
  const file = path.join(REPORT_DIR, name);
  writeFileSync(file, `${text}\n`);
  return file;
}

describe("engine on synthetic schematics", () => {
  it(
    "finds each labelled event within ±2 bars across 300 realistic schematics (recall and precision ≥ 0.95 for the goal types)",
    { timeout: 120_000 },
    () => {
      const n = 300;
      const e = evaluate(n, "realistic");
      const table = report(`schematics (${n}, realistic noise; ${KINDS.join(", ")}):`, e, n);
      const file = writeReport("schematic-recall.txt", table);
      console.log(table);
      for (const type of GOAL_TYPES) {
        const t = e.tallies.get(type);
        expect(t, `${type} never labelled\n${table}`).toBeDefined();
        if (!t) continue;
        const { recall, precision } = rates(t);
        const why = `${type}: recall ${recall.toFixed(3)} (${t.tp}/${t.tp + t.fn}), precision ${precision.toFixed(3)} (${t.tp}/${t.tp + t.fp}); table in ${file}\n${table}`;
        expect.soft(recall, why).toBeGreaterThanOrEqual(GOAL);
        expect.soft(precision, why).toBeGreaterThanOrEqual(GOAL);
      }
      expect(e.phaseOk, table).toBeGreaterThanOrEqual(Math.ceil(0.95 * n));
    },
  );

  it("meets the same goals on clean series (capped quiet volume, no spikes or gaps)", { timeout: 120_000 }, () => {
    const n = 120;
    const e = evaluate(n, "clean");
    const table = report(`schematics (${n}, clean):`, e, n);
    const file = writeReport("schematic-recall-clean.txt", table);
    console.log(table);
    for (const type of GOAL_TYPES) {
      const t = e.tallies.get(type);
      if (!t) continue;
      const { recall, precision } = rates(t);
      const why = `${type}: recall ${recall.toFixed(3)}, precision ${precision.toFixed(3)}; table in ${file}\n${table}`;
      expect.soft(recall, why).toBeGreaterThanOrEqual(GOAL);
      expect.soft(precision, why).toBeGreaterThanOrEqual(GOAL);
    }
  });

  it("labels re-accumulation and re-distribution without a climax", () => {
    const re = generateSchematic({ kind: "reaccumulation", market: "US", rng: createRng(3) });
    const types = new Set(re.labels.map((l) => l.type));
    expect(types.has("SC") || types.has("BC") || types.has("PS")).toBe(false);
    for (const t of ["AR", "ST", "SOS"] as const) expect(types.has(t), t).toBe(true);
    const rd = generateSchematic({ kind: "redistribution", market: "CN", rng: createRng(4) });
    const dTypes = new Set(rd.labels.map((l) => l.type));
    expect(dTypes.has("SC") || dTypes.has("BC") || dTypes.has("PSY")).toBe(false);
    for (const t of ["AR", "ST", "SOW"] as const) expect(dTypes.has(t), t).toBe(true);
  });

  it("is point in time: events of bars[0..t] equal the full run's events confirmed by t", () => {
    const rng = createRng(4242);
    for (let seed = 300; seed < 316; seed++) {
      const x = draw(seed);
      const full = run(x.bars, x);
      for (let k = 0; k < 6; k++) {
        const cut = 60 + Math.floor(rng.next() * (x.bars.length - 60));
        const part = run(x.bars.slice(0, cut + 1), x);
        const lastDate = x.bars[cut]?.date ?? "";
        const expected = full.events.filter((e) => e.confirmedAt <= lastDate).map(strip);
        expect(part.events.map(strip), `seed ${seed} cut ${cut}`).toEqual(expected);
        for (const e of part.events) expect(e.confirmedAt >= e.date).toBe(true);
      }
    }
  });

  it("gives the same events when prices are multiplied by k and volumes by m", () => {
    for (let seed = 400; seed < 412; seed++) {
      const x = draw(seed);
      const k = 3.7;
      const m = 250;
      const scaled = x.bars.map((b) => ({
        ...b,
        open: b.open * k,
        high: b.high * k,
        low: b.low * k,
        close: b.close * k,
        volume: b.volume * m,
      }));
      const a = run(x.bars, x);
      const b = run(scaled, x);
      expect(b.events.map(strip)).toEqual(a.events.map(strip));
      b.events.forEach((e, i) => expect(e.price / k).toBeCloseTo(a.events[i]?.price ?? Number.NaN, 2));
      expect(b.phase).toEqual(a.phase);
    }
  });

  it("never dates a volume event on a limit-locked (frozen) bar", () => {
    const volumeTypes = new Set<EventType>([
      "PS",
      "SC",
      "ST",
      "Spring",
      "Test",
      "SOS",
      "LPS",
      "BU",
      "PSY",
      "BC",
      "UT",
      "UTAD",
      "SOW",
      "LPSY",
      "EVR",
    ]);
    let frozenSeen = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const x = generateSchematic({
        kind: KINDS[seed % KINDS.length] ?? "accumulation",
        market: "CN",
        board: "main",
        rng: createRng(seed),
      });
      const a = run(x.bars, x);
      const frozenDates = new Set(x.frozen.map((i) => x.bars[i]?.date));
      frozenSeen += frozenDates.size;
      for (const e of a.events)
        if (volumeTypes.has(e.type)) expect(frozenDates.has(e.date), `${e.type} on ${e.date}`).toBe(false);
    }
    expect(frozenSeen).toBeGreaterThan(20);
  });

  it("ignores a climax or SOS bar once it is limit-locked, however heavy its volume", () => {
    const x = generateSchematic({ kind: "accumulation", market: "CN", board: "main", rng: createRng(77) });
    const sos = x.labels.find((l) => l.type === "SOS")?.index ?? -1;
    const bars = x.bars.map((b) => ({ ...b }));
    const prev = bars[sos - 1];
    const bar = bars[sos];
    if (!prev || !bar) throw new Error("no SOS label");
    const lock = prev.close * 1.1;
    bars[sos] = { ...bar, open: lock, high: lock, low: lock * 0.997, close: lock, volume: bar.volume * 4 };
    const a = run(bars, x);
    expect(a.events.some((e) => e.date === bar.date)).toBe(false);
    expect(run(x.bars, x).events.some((e) => e.type === "SOS" && e.date === bar.date)).toBe(true);
  });

  it("answers insufficient_data, not a guess, when history is too short", () => {
    const x = draw(5);
    const r = analyze(x.bars.slice(0, 59));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("insufficient_data");
      expect(r.error.message).toMatch(/60/);
    }
  });

  it("returns a result that satisfies the contract schema", () => {
    const x = draw(8);
    const r = analyze(x.bars, {
      ...optionsFor(x),
      benchmark: draw(9).bars,
      position: { cost: x.bars[150]?.close ?? 1 },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const parsed = AnalyzeRequest.shape.bars.safeParse(x.bars);
    expect(parsed.success).toBe(true);
    expect(r.value.health.score).toBeGreaterThanOrEqual(0);
    expect(r.value.diagnosis?.grade).toBeDefined();
  });
});
