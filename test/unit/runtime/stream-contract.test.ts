/**
 * The stream's wire contract holds on the worker side: every `data-*` part a real turn emits parses
 * with its schema in `contracts/stream-parts.ts` (strictly, as emitted), the finish metadata parses,
 * and no part type is emitted anywhere in worker/ without a schema.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_PARTS, FinishMetadata, type DataPartType } from "../../../worker/contracts/stream-parts";
import { createModels } from "../../../worker/runtime/model";
import { runHarnessTurn } from "../../support/runtime-harness";
import { startScriptedModel, type ScriptedModel } from "../../support/scripted-model/server";

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(async () => {
  await server.close();
});

const models = () => createModels({ baseURL: server.url, apiKey: undefined, model: "scripted" }, undefined);

function checkParts(chunks: UIMessageChunk[]): string[] {
  const seen: string[] = [];
  for (const chunk of chunks) {
    if (chunk.type.startsWith("data-")) {
      const schema = DATA_PARTS[chunk.type as DataPartType];
      expect(schema, `${chunk.type} has a schema`).toBeDefined();
      const parsed = schema.safeParse((chunk as { data: unknown }).data);
      expect(parsed.success, `${chunk.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      seen.push(chunk.type);
    }
    if (chunk.type === "finish") {
      const parsed = FinishMetadata.safeParse(chunk.messageMetadata);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      seen.push("finish");
    }
  }
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("stream parts contract", () => {
  it("a turn with a retry, tool calls, a doom-loop stop and usage emits only parts that parse", async () => {
    const same = { toolCalls: [{ name: "get_time", arguments: { market: "cn" } }] };
    server.push([{ status: 429, headers: { "retry-after-ms": "5" } }, same, same, same, { text: "done" }], "k-wire-1");
    const run = await runHarnessTurn({ models: models(), text: "time k-wire-1" });
    const seen = checkParts(run.chunks);
    expect(seen).toEqual(expect.arrayContaining(["data-retry", "data-usage", "data-guard", "finish"]));
  });

  it("the loop guard's retry and its prefix warning parse", async () => {
    server.push([{ text: "Looks fine." }, { text: "Still fine." }, { text: "Fine." }], "k-wire-2");
    const run = await runHarnessTurn({ models: models(), text: "analyze 600519 k-wire-2" });
    const seen = checkParts(run.chunks);
    expect(seen).toEqual(expect.arrayContaining(["data-retry", "data-guard", "finish"]));
  });

  it("every data part type written in worker/ has a schema", () => {
    const root = join(import.meta.dirname, "../../../worker");
    const written = new Set<string>();
    for (const file of sourceFiles(root)) {
      for (const m of readFileSync(file, "utf8").matchAll(/(?:type: |dataPart\()"(data-[a-z-]+)"/g))
        written.add(m[1] as string);
    }
    expect(written.size).toBeGreaterThanOrEqual(7);
    for (const type of written) expect(Object.keys(DATA_PARTS), type).toContain(type);
  });
});
