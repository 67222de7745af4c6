/**
 * Fan-out shared by screening and backtests: the universe cut into batches of `batchSize` symbols,
 * one queue message per batch (sent in chunks of 20, the Queues batch limit we keep under), and the
 * task's progress moved to "fan-out".
 */
import { z } from "zod";
import type { SymbolInfo } from "../contracts/market";
import type { BackgroundDeps } from "./background-deps";

const SEND_CHUNK = 20;

/** The schema of one fan-out batch message of `kind` (the same shape for screening and backtests). */
export function batchMessage<K extends "screen.batch" | "backtest.batch">(kind: K) {
  return z.object({
    kind: z.literal(kind),
    taskId: z.string().min(1),
    batch: z.number().int().nonnegative(),
    symbols: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        industry: z.string().nullable(),
        board: z.enum(["main", "chinext", "star", "bse"]).nullable(),
      }),
    ),
  });
}

/** Sends one `kind` message per batch of symbols and records the fan-out on the task. */
export async function fanOutBatches(
  d: BackgroundDeps,
  taskId: string,
  kind: "screen.batch" | "backtest.batch",
  symbols: readonly Pick<SymbolInfo, "id" | "name" | "industry" | "board">[],
  total: number,
): Promise<void> {
  const messages = Array.from({ length: total }, (_, b) => ({
    body: {
      kind,
      taskId,
      batch: b,
      symbols: symbols
        .slice(b * d.batchSize, (b + 1) * d.batchSize)
        .map((s) => ({ id: s.id, name: s.name, industry: s.industry, board: s.board })),
    },
  }));
  for (let i = 0; i < messages.length; i += SEND_CHUNK) await d.queue.sendBatch(messages.slice(i, i + SEND_CHUNK));
  await d.tasks.transition(
    taskId,
    ["running"],
    { progress: { stage: "fan-out", detail: `${symbols.length} symbols in ${total} batches`, pct: 10 } },
    d.now(),
  );
}
