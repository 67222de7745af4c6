/**
 * The audit trail end to end in Node: entries built and sealed by the same code the session DO runs
 * (with the WebCrypto signer), written as an export, then checked by `scripts/audit-verify.mjs` as a
 * third party would run it — and every kind of tampering named at the first bad entry.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { UIMessageChunk } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../worker/contracts/audit";
import { signerFor, type AuditSigner } from "../../../worker/http/audit-signer";
import { canonicalJson } from "../../../worker/lib/canonical-json";
import {
  buildAuditBodies,
  genesisHash,
  sealAuditEntry,
  type AuditTurnFacts,
} from "../../../worker/runtime/audit/build-entries";

const KEY = "MC4CAQAwBQYDK2VwBCIEIAj0DIGcaMfrZx4Phzu762P/Ro8sv+2fS1k495z9MutY";
const OTHER_PUBLIC = "c2lnbmF0dXJlcy1tdXN0LWZhaWwtd2l0aC10aGlzLWs"; // 32 bytes, not the key's public half
const root = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "audit-verify-"));

const spillRef = "spills/s_a/t_2/call_big.json";
const spilledText = JSON.stringify({ rows: Array.from({ length: 3_000 }, (_, i) => ({ i, code: `60${i}` })) });

function turnChunks(turn: number): UIMessageChunk[] {
  const call = `call_${turn}`;
  return [
    { type: "start", messageId: `m_${turn}` },
    {
      type: "tool-input-available",
      toolCallId: call,
      toolName: "analyze_stock",
      input: { symbol: "600000", days: 250 },
    },
    ...(turn === 2
      ? ([
          { type: "tool-approval-request", approvalId: "ap_1", toolCallId: call },
          { type: "tool-approval-response", approvalId: "ap_1", approved: true },
        ] as UIMessageChunk[])
      : []),
    {
      type: "tool-output-available",
      toolCallId: call,
      output: { phase: "ACC_B", score: 61 + turn },
      toolMetadata: { ms: 12 },
    } as UIMessageChunk,
    ...(turn === 2
      ? ([
          { type: "tool-input-available", toolCallId: "call_big", toolName: "screen_stocks", input: { board: "all" } },
          {
            type: "tool-output-available",
            toolCallId: "call_big",
            output: {
              spilled: true,
              ref: spillRef,
              chars: spilledText.length,
              preview: "…",
              index: { keys: [], arrays: {} },
              note: "",
            },
          },
        ] as UIMessageChunk[])
      : []),
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: `答案 ${turn}` },
    { type: "text-end", id: "t" },
    { type: "finish" },
  ];
}

async function chainOf(sessionId: string, signer: AuditSigner, turns = 3): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let prev = await genesisHash(sessionId, signer.crypto);
  for (let t = 1; t <= turns; t++) {
    const facts: AuditTurnFacts = {
      sessionId,
      turnId: `t_${t}`,
      userId: "local",
      kind: t === 3 ? "notification" : "turn",
      startedAt: Date.UTC(2026, 11, 1, 9, t),
      endedAt: Date.UTC(2026, 11, 1, 9, t, 30),
      status: "done",
      modelId: "scripted",
      settings: { profile: null, offline: false },
      userText: `分析 600000 (${t})`,
      chunks: turnChunks(t),
      approvals:
        t === 2
          ? [{ toolCallId: "call_2", status: "allow", decidedBy: "local", decidedAt: Date.UTC(2026, 11, 1, 9, 2, 5) }]
          : [],
      usage: { inputTokens: 100 * t, outputTokens: 10 * t },
      costMicros: 42,
      view: { system: "You are a Wyckoff analyst.", messages: [{ role: "user", content: `分析 600000 (${t})` }] },
      spillText: async (ref) => (ref === spillRef ? spilledText : null),
    };
    for (const body of await buildAuditBodies(facts, signer.crypto)) {
      const entry = await sealAuditEntry(body, { seq: entries.length + 1, prev }, signer.crypto);
      entries.push(entry);
      prev = entry.hash;
    }
  }
  return entries;
}

function write(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => `${l}\n`).join(""));
  return file;
}

function verify(args: string[]): { code: number; out: string } {
  try {
    const out = execFileSync(process.execPath, [path.join(root, "scripts/audit-verify.mjs"), ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { code: 0, out };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: `${e.stdout}${e.stderr}` };
  }
}

let signer: AuditSigner;
let entries: AuditEntry[];
let lines: string[];

beforeAll(async () => {
  signer = await signerFor(KEY);
  entries = await chainOf("s_a", signer);
  lines = entries.map((e) => JSON.stringify(e));
});

// Each case runs the verifier as its own Node process (as a third party would); on a busy machine a
// process start can take seconds, so these cases get room beyond the 5 s default.
describe("scripts/audit-verify.mjs", { timeout: 120_000 }, () => {
  it("accepts an intact, signed chain with its messages export and spills", () => {
    const file = write("ok.jsonl", lines);
    const messages = path.join(dir, "session.json");
    writeFileSync(
      messages,
      JSON.stringify({
        id: "s_a",
        messages: [1, 2, 3].map((t) => ({
          role: "assistant",
          parts: [
            { type: "tool-analyze_stock", toolCallId: `call_${t}`, output: { score: 61 + t, phase: "ACC_B" } },
            ...(t === 2
              ? [
                  {
                    type: "tool-screen_stocks",
                    toolCallId: "call_big",
                    output: JSON.parse(
                      JSON.stringify(
                        entries[1]
                          ? {
                              spilled: true,
                              ref: spillRef,
                              chars: spilledText.length,
                              preview: "…",
                              index: { keys: [], arrays: {} },
                              note: "",
                            }
                          : {},
                      ),
                    ),
                  },
                ]
              : []),
            { type: "text", text: `答案 ${t}` },
          ],
        })),
      }),
    );
    const spills = path.join(dir, "spills-root");
    mkdirSync(path.join(spills, path.dirname(spillRef)), { recursive: true });
    writeFileSync(path.join(spills, spillRef), spilledText);
    const result = verify([file, "--key", signer.publicKey ?? "", "--messages", messages, "--spills", spills]);
    expect(result.out).toContain("OK: 3 entries");
    expect(result.out).toContain("3 signatures verified");
    expect(result.out).toContain("4 tool results match");
    expect(result.out).toContain("1 spilled results match");
    expect(result.code).toBe(0);
  });

  it("names the first changed entry for a change of any byte of any entry", () => {
    for (const [i, line] of lines.entries()) {
      // Change one character inside a value (a digit or a letter), keeping the JSON valid.
      const at = line.indexOf('"status":"') + 10;
      const flipped = line.slice(0, at) + (line[at] === "d" ? "e" : "d") + line.slice(at + 1);
      const copy = [...lines];
      copy[i] = flipped;
      const result = verify([write(`byte-${i}.jsonl`, copy), "--key", signer.publicKey ?? ""]);
      expect(result.code).toBe(1);
      expect(result.out).toContain(`FAIL at entry ${i + 1}: hash`);
    }
  });

  it("detects a removed entry, two reordered, an entry from another session, and a wrong key", async () => {
    const removed = verify([write("removed.jsonl", [lines[0] ?? "", lines[2] ?? ""])]);
    expect(removed.out).toContain("FAIL at entry 2: seq");

    const reordered = verify([write("reordered.jsonl", [lines[1] ?? "", lines[0] ?? "", lines[2] ?? ""])]);
    expect(reordered.out).toContain("FAIL at entry 1");

    const other = (await chainOf("s_b", signer)).map((e) => JSON.stringify(e));
    const swapped = verify([write("swapped.jsonl", [lines[0] ?? "", other[1] ?? "", lines[2] ?? ""])]);
    expect(swapped.out).toContain("FAIL at entry 2: belongs to session s_b");

    // Even when the swapped entry is re-labelled with this session, its link breaks.
    const relabelled = JSON.parse(other[1] ?? "{}") as AuditEntry;
    relabelled.session = "s_a";
    const relinked = verify([write("relabelled.jsonl", [lines[0] ?? "", JSON.stringify(relabelled), lines[2] ?? ""])]);
    expect(relinked.out).toContain("FAIL at entry 2: prev");

    const wrongKey = verify([write("wrong-key.jsonl", lines), "--key", OTHER_PUBLIC]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/FAIL at entry 1: (signed with key|signature)/);

    const truncated = verify([write("truncated.jsonl", [lines[0] ?? "", "{not json"])]);
    expect(truncated.out).toContain("FAIL at entry 2: not valid JSON");
  });

  it("checks the result hashes against the messages export", () => {
    const messages = path.join(dir, "tampered-session.json");
    writeFileSync(
      messages,
      JSON.stringify({
        id: "s_a",
        messages: [
          {
            role: "assistant",
            parts: [
              { type: "tool-analyze_stock", toolCallId: "call_1", output: { phase: "ACC_B", score: 99 } },
              { type: "text", text: "答案 1" },
            ],
          },
        ],
      }),
    );
    const result = verify([write("one.jsonl", [lines[0] ?? ""]), "--messages", messages]);
    expect(result.out).toContain("FAIL at entry 1: result of tool call call_1 (analyze_stock) differs from the export");
  });

  it("keeps an entry bounded: long arguments are hashed, not copied", async () => {
    const big = { text: "x".repeat(50_000) };
    const facts: AuditTurnFacts = {
      sessionId: "s_c",
      turnId: "t_1",
      userId: "u",
      kind: "turn",
      startedAt: 0,
      endedAt: 1,
      status: "done",
      modelId: "m",
      settings: {},
      userText: "q",
      chunks: [{ type: "tool-input-available", toolCallId: "c", toolName: "write_file", input: big }],
      approvals: [],
      usage: {},
      costMicros: 0,
    };
    const [body] = await buildAuditBodies(facts, signer.crypto);
    const call = body?.tools[0];
    expect(call?.args).toEqual({ sha256: call?.argsHash, chars: canonicalJson(big).length });
    expect(call?.status).toBe("unanswered");
    expect(JSON.stringify(body).length).toBeLessThan(2_000);
  });

  it("seals a pipeline turn as one entry per step plus the closing turn entry", async () => {
    const chunks: UIMessageChunk[] = [0, 1].flatMap((i) => [
      { type: "data-pipeline-step", data: { index: i, name: `s${i}`, of: 2 }, transient: true } as UIMessageChunk,
      { type: "tool-input-available", toolCallId: `p${i}`, toolName: "analyze_stock", input: { symbol: "SIM.0001" } },
      { type: "tool-output-available", toolCallId: `p${i}`, output: { ok: i } },
      { type: "text-delta", id: `x${i}`, delta: `step ${i}` },
    ]);
    const bodies = await buildAuditBodies(
      {
        sessionId: "s_d",
        turnId: "t_1",
        userId: "u",
        kind: "turn",
        startedAt: 0,
        endedAt: 1,
        status: "done",
        modelId: "m",
        settings: {},
        userText: "deep",
        chunks,
        approvals: [],
        usage: { inputTokens: 5 },
        costMicros: 0,
      },
      signer.crypto,
    );
    expect(bodies.map((b) => [b.kind, b.step?.name ?? null, b.tools.map((t) => t.id)])).toEqual([
      ["pipeline_step", "s0", ["p0"]],
      ["pipeline_step", "s1", ["p1"]],
      ["turn", null, []],
    ]);
    expect(bodies[2]?.textHash).toBe(await signer.crypto.sha256Hex("step 0step 1"));
  });
});
