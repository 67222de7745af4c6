/** Fills the bench's D1 market store (setup of the market benches, never timed). */
import { env } from "cloudflare:test";
import type { Bar } from "../../worker/contracts/analysis";
import { encodeBarChunks } from "../../worker/lib/bar-chunks";
import type { BenchSymbol } from "../support/market-universe";

/** Replaces the store with the first `n` symbols of `u`, in the D1 adapter's row format. */
export async function fillStore(
  u: { symbols: readonly BenchSymbol[]; bars: readonly Bar[][] },
  n: number,
): Promise<void> {
  await env.DB.exec("DELETE FROM market_bar_chunks; DELETE FROM market_series; DELETE FROM market_symbols;");
  const bulk = (sql: string, rows: unknown[]) => env.DB.prepare(sql).bind(JSON.stringify(rows)).run();
  for (let i = 0; i < n; i += 100) {
    const part = u.symbols.slice(i, Math.min(n, i + 100));
    await bulk(
      `INSERT INTO market_symbols (id, market, exchange, code, name, pinyin, kind, board, industry, status, currency, simulated, updated_at)
       SELECT json_extract(value, '$.id'), 'CN', 'SH', json_extract(value, '$.id'), json_extract(value, '$.name'), '', 'stock',
         json_extract(value, '$.board'), json_extract(value, '$.industry'), 'listed', 'CNY', 0, 0 FROM json_each(?1)`,
      part,
    );
    await bulk(
      `INSERT INTO market_series (symbol_id, adjust, origin, first_date, last_date, bar_count, simulated, fetched_at)
       SELECT json_extract(value, '$.id'), 'qfq', 'eastmoney', json_extract(value, '$.first'), json_extract(value, '$.last'),
         json_extract(value, '$.n'), 0, 0 FROM json_each(?1)`,
      part.map((s, k) => {
        const bars = u.bars[i + k] ?? [];
        return { id: s.id, first: bars[0]?.date, last: bars.at(-1)?.date, n: bars.length };
      }),
    );
    await bulk(
      `INSERT INTO market_bar_chunks (symbol_id, year, bars)
       SELECT json_extract(value, '$.id'), json_extract(value, '$.year'), json_extract(value, '$.bars') FROM json_each(?1)`,
      part.flatMap((s, k) => encodeBarChunks(u.bars[i + k] ?? []).map((c) => ({ id: s.id, ...c }))),
    );
  }
}

/** On-CPU ms so far of the workerd process running this bench (bench/support/process-cpu.ts), or null. */
export async function workerdCpuMs(collectorUrl: string): Promise<number | null> {
  return (await workerdProcess(collectorUrl)).ms;
}

/** What the collector tells of the workerd process running this bench (bench/support/collector.ts). */
export interface WorkerdProcess {
  /** On-CPU ms so far, all threads. */
  ms: number | null;
  /** On-CPU ms so far of the event-loop thread (the worker and local D1/R2; not V8's GC/compile helpers). */
  mainMs: number | null;
  /** Resident size, MiB (the whole process: the test pool, both module copies, local D1). */
  rssMb: number | null;
}

/** The workerd process's CPU so far and resident size, null where the collector cannot tell. */
export async function workerdProcess(collectorUrl: string): Promise<WorkerdProcess> {
  const res = await fetch(`${collectorUrl}/cpu`);
  return (await res.json()) as WorkerdProcess;
}
