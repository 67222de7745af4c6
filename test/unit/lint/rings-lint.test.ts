/**
 * The lint holds the rings: each planted violation — the clock or RNG in core, the agents SDK in
 * application code, a binding type or an edge import in a background job, a `..` escape out of the
 * web's aliases, an import cycle — fails `oxlint` with the
 * repository's own config, and the same files without the violation pass. Planted in a scratch copy of
 * the layout (never in worker/), linted by the project's oxlint.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "../../..");
const oxlint = join(repo, "node_modules/oxlint/bin/oxlint");
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "rings-lint-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Diagnostic {
  code: string;
  filename: string;
}

/**
 * Lints `files` (path → source) laid out in a fresh folder with the repository's lint config; the
 * diagnostics by file.
 */
function lint(name: string, files: Record<string, string>): Diagnostic[] {
  const root = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  cpSync(join(repo, ".oxlintrc.json"), join(root, ".oxlintrc.json"));
  cpSync(join(repo, "scripts/lint"), join(root, "scripts/lint"), { recursive: true });
  let out: string;
  try {
    out = execFileSync(process.execPath, [oxlint, "-c", ".oxlintrc.json", "--format", "json", ...Object.keys(files)], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    out = (error as { stdout?: string }).stdout ?? "";
  }
  return (JSON.parse(out) as { diagnostics: Diagnostic[] }).diagnostics;
}

const cases: { name: string; rule: string; bad: Record<string, string>; good: Record<string, string> }[] = [
  {
    name: "date-now",
    rule: "no-restricted-properties",
    bad: { "worker/lib/probe.ts": "export const at = (): number => Date.now();\n" },
    good: { "worker/lib/probe.ts": "export const at = (now: () => number): number => now();\n" },
  },
  {
    name: "math-random",
    rule: "no-restricted-properties",
    bad: { "worker/engine/probe.ts": "export const pick = (): number => Math.random();\n" },
    good: { "worker/engine/probe.ts": "export const pick = (rng: () => number): number => rng();\n" },
  },
  {
    name: "new-date",
    rule: "no-clock",
    bad: { "worker/contracts/probe.ts": "export const today = (): string => new Date().toISOString();\n" },
    good: {
      "worker/contracts/probe.ts":
        "export const day = (iso: string): string => new Date(`${iso}T00:00:00Z`).toISOString();\n",
    },
  },
  {
    name: "agents-in-application",
    rule: "no-restricted-imports",
    bad: {
      "worker/runtime/probe.ts": 'import { getAgentByName } from "agents";\nexport const f = getAgentByName;\n',
    },
    good: { "worker/runtime/probe.ts": 'import { z } from "zod";\nexport const f = z.string();\n' },
  },
  {
    name: "binding-type-in-application",
    rule: "no-edge-types",
    bad: {
      "worker/background/probe.ts":
        'export const put = (bucket: R2Bucket, key: string): Promise<unknown> => bucket.put(key, "");\n',
    },
    good: {
      "worker/background/probe.ts":
        'export const put = (store: { put(k: string, t: string): Promise<void> }, key: string): Promise<void> => store.put(key, "");\n',
    },
  },
  {
    name: "edge-import-in-background",
    rule: "no-restricted-imports",
    bad: {
      "worker/background/probe.ts":
        'import { D1TaskRepo } from "../storage/task-repo";\nexport const f = D1TaskRepo;\n',
    },
    good: {
      "worker/background/probe.ts":
        'import type { TaskWriter } from "../ports/task-store";\nexport type F = TaskWriter;\n',
    },
  },
  {
    name: "inline-repo-in-route",
    rule: "no-restricted-imports",
    bad: {
      "worker/routes/probe.ts": 'import { createDb } from "../storage/db";\nexport const f = createDb;\n',
    },
    good: {
      "worker/routes/probe.ts": 'import type { RequestDeps } from "./request-deps";\nexport type F = RequestDeps;\n',
    },
  },
  {
    name: "contracts-escape",
    rule: "no-restricted-imports",
    bad: {
      "web/lib/probe.ts": 'import { runTurn } from "@contracts/../runtime/run-turn";\nexport const f = runTurn;\n',
    },
    good: { "web/lib/probe.ts": 'import { TaskView } from "@contracts/task";\nexport const f = TaskView;\n' },
  },
  {
    name: "cycle",
    rule: "no-cycle",
    bad: {
      "worker/lib/probe-a.ts": 'import { b } from "./probe-b";\nexport const a = (): number => b() + 1;\n',
      "worker/lib/probe-b.ts": 'import { a } from "./probe-a";\nexport const b = (): number => a() - 1;\n',
    },
    good: {
      "worker/lib/probe-a.ts": 'import { b } from "./probe-b";\nexport const a = (): number => b() + 1;\n',
      "worker/lib/probe-b.ts": "export const b = (): number => 1;\n",
    },
  },
];

describe("ring lint", () => {
  // One oxlint run over every planted violation, one over the same files without them.
  const rename = (text: string, name: string) => text.replaceAll("./probe", `./${name}-probe`);
  const tree = (which: "bad" | "good") =>
    Object.fromEntries(
      cases.flatMap((c) =>
        Object.entries(c[which]).map(([path, text]) => [
          path.replace("probe", `${c.name}-probe`),
          rename(text, c.name),
        ]),
      ),
    );
  let bad: Diagnostic[] = [];
  let good: Diagnostic[] = [];
  beforeAll(() => {
    bad = lint("bad", tree("bad"));
    good = lint("good", tree("good"));
  }, 120_000);

  for (const c of cases) {
    it(`fails on a planted ${c.name} violation (${c.rule}) and passes without it`, () => {
      const files = Object.keys(c.bad).map((p) => p.replace("probe", `${c.name}-probe`));
      const hits = bad.filter((d) => files.includes(d.filename) && d.code.includes(c.rule));
      expect(hits.length, JSON.stringify(bad.filter((d) => files.includes(d.filename)))).toBeGreaterThan(0);
      const clean = good.filter((d) => files.includes(d.filename));
      expect(clean, JSON.stringify(clean)).toEqual([]);
    });
  }

  it("names only files and folders that exist in its ring overrides", async () => {
    const { existsSync, readFileSync } = await import("node:fs");
    const config = JSON.parse(readFileSync(join(repo, ".oxlintrc.json"), "utf8")) as {
      overrides: { files: string[] }[];
      jsPlugins?: string[];
    };
    for (const o of config.overrides)
      for (const glob of o.files) {
        // The fixed part of a glob (up to the folder before its first wildcard) must exist.
        const fixed = glob.includes("*") ? glob.slice(0, glob.slice(0, glob.indexOf("*")).lastIndexOf("/")) : glob;
        expect(existsSync(join(repo, fixed)), glob).toBe(true);
      }
    for (const p of config.jsPlugins ?? []) expect(existsSync(join(repo, p)), p).toBe(true);
  });
});
