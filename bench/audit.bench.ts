/**
 * Audit write cost per turn: building and sealing a turn's entries (canonical JSON, SHA-256 of the
 * view, of every argument and result, Ed25519 signature) with the same WebCrypto signer the session
 * DO uses, at 1, 5 and 15 tool calls per turn (each result ≈ 8 KB), so the cost curve shows. The
 * SQLite insert of the finished line is in-process and not part of this figure. The session seals a
 * turn after its answer is stored (queued under waitUntil), so this CPU is not on the answer's path.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import { it } from "vitest";
import { signerFor } from "../worker/http/audit-signer";
import { buildAuditBodies, genesisHash, sealAuditEntry } from "../worker/runtime/audit/build-entries";
import { median, record } from "./support/record";

const KEY = "MC4CAQAwBQYDK2VwBCIEIAj0DIGcaMfrZx4Phzu762P/Ro8sv+2fS1k495z9MutY";
const RUNS = 200;

function chunksWith(calls: number): UIMessageChunk[] {
  const out: UIMessageChunk[] = [{ type: "start", messageId: "m" }];
  for (let i = 0; i < calls; i++) {
    out.push({
      type: "tool-input-available",
      toolCallId: `c${i}`,
      toolName: "analyze_stock",
      input: { symbol: `60000${i}` },
    });
    out.push({
      type: "tool-output-available",
      toolCallId: `c${i}`,
      output: { bars: Array.from({ length: 120 }, (_, d) => ({ d, o: 10 + d / 7, c: 10.2 + d / 9, v: 1e6 + d })) },
    });
  }
  out.push({ type: "text-delta", id: "t", delta: "威科夫分析：吸筹 B 阶段。".repeat(40) });
  return out;
}

const view: { system: string; messages: ModelMessage[] } = {
  system: "You are a Wyckoff analyst. ".repeat(200),
  messages: Array.from({ length: 30 }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: `message ${i} `.repeat(50),
  })),
};

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return {
    median: median(xs),
    mean: xs.reduce((s, x) => s + x, 0) / xs.length,
    p90: sorted[Math.floor(xs.length * 0.9)] ?? 0,
  };
};

it("audit write cost per turn", async () => {
  const signer = await signerFor(KEY);
  const prev = await genesisHash("s_bench", signer.crypto);
  for (const calls of [1, 5, 15]) {
    const chunks = chunksWith(calls);
    const times: number[] = [];
    for (let r = 0; r < RUNS + 20; r++) {
      const t = performance.now();
      const bodies = await buildAuditBodies(
        {
          sessionId: "s_bench",
          turnId: `t_${r}`,
          userId: "local",
          kind: "turn",
          startedAt: 0,
          endedAt: 1,
          status: "done",
          modelId: "scripted",
          settings: { profile: null },
          userText: "分析 600000",
          chunks,
          approvals: [],
          usage: { inputTokens: 1000, outputTokens: 100 },
          costMicros: 10,
          view,
        },
        signer.crypto,
      );
      let link = prev;
      for (const [i, body] of bodies.entries())
        link = (await sealAuditEntry(body, { seq: i + 1, prev: link }, signer.crypto)).hash;
      if (r >= 20) times.push(performance.now() - t);
    }
    const s = stats(times);
    record({
      id: `audit_write_${calls}calls_ms`,
      name: `audit entry build + seal per turn, ${calls} tool call(s) (median; mean ${s.mean.toFixed(3)}, p90 ${s.p90.toFixed(3)})`,
      value: Math.round(s.median * 1000) / 1000,
      unit: "ms",
      goal: 2,
    });
  }
});
