/**
 * The market sync's queue work. `sync.start` (Cron Trigger after the close, or an operator's POST)
 * opens a run — or resumes the one still running — pages the whole A-share list once (universe:
 * names, boards, industries, ST, listing dates, caps; symbols the complete list no longer has become
 * delisted), plans the day (planner in plan.ts: append the list's bar where that is enough, refetch
 * history on gaps, corporate actions, short or new series and last run's failures) and sends one
 * `sync.batch` per stored batch. A batch is done once: a redelivered or duplicated one changes
 * nothing, and the run's counters are recounted from its batches. A fetch batch with failures on
 * transient upstream errors (rate limits, 5xx, timeouts) is retried by the queue (with backoff)
 * before it settles with the failures listed, which the next run fetches first.
 *
 * The US universe (`market: "US"`) is a configured list (the bundled S&P 500 or `US_UNIVERSE`):
 * the start upserts it (symbols an earlier list had and this one lacks leave the universe) and every
 * symbol is fetched through Yahoo each run — the whole history the first time, then incrementally —
 * which also resolves its name, venue, currency and type; a ticker Yahoo does not know is delisted.
 * The run's as-of date is the most common last bar date once every batch is in.
 */
import { z } from "zod";
import type { Logger } from "../../lib/log";
import type { MarketData } from "../../ports/market-data";
import type { BatchOutcome, SyncRun, SyncStore, UniverseFeed, UniverseRow } from "../../ports/market-sync";
import type { Result } from "../../lib/result";
import type { UsListEntry } from "../../ports/market-sync";
import { PermanentError as SyncPermanent, RetryableError as SyncRetry } from "../queue-consumer";
import { listTradeDate, MIN_SYNC_BARS, planBatches, planSync, planUsBatches } from "./plan";

/** The CN indices every run keeps current (regime, breadth, relative strength, backtest benchmark). */
export const SYNC_INDICES = ["SH.000001", "SZ.399001", "SZ.399006", "SH.000300"] as const;
/** The US index every US run keeps current (the US screening's regime and relative strength). */
export const US_SYNC_INDICES = ["US.SPX"] as const;
const isIndex = (id: string): boolean =>
  (SYNC_INDICES as readonly string[]).includes(id) || (US_SYNC_INDICES as readonly string[]).includes(id);
/** A run still "running" after this long is superseded by the next start. */
export const RUN_STALE_MS = 20 * 3600_000;
/** Attempts per list page before the start message goes back to the queue. */
const PAGE_ATTEMPTS = 4;
/** Most list pages read (a guard against a provider that never stops paging). */
const MAX_PAGES = 120;
/** Messages per `sendBatch` (the Queues limit is 100 messages and 256 KB; ours are tiny). */
const SEND_CHUNK = 100;
/**
 * Deliveries a fetch batch with transient failures gets before it settles with them listed: the
 * queue's first delivery plus its `max_retries = 3` (wrangler.toml). Symbols that already synced are
 * fresh in the cache on a redelivery, so only the failed ones reach the provider again.
 */
const BATCH_DELIVERIES = 4;

export const SyncStartMessage = z.object({ kind: z.literal("sync.start"), market: z.enum(["CN", "US"]).default("CN") });
export const SyncBatchMessage = z.object({
  kind: z.literal("sync.batch"),
  runId: z.string().min(1).max(64),
  batch: z.number().int().nonnegative(),
});

/** The queue the sync sends its batches to. */
export interface SyncQueue {
  sendBatch(messages: Iterable<{ body: unknown }>): Promise<unknown>;
}

/** What the sync needs. */
export interface SyncDeps {
  store: SyncStore;
  feed: UniverseFeed;
  /** The US universe list (the bundled default or the deployment's setting) and where it comes from. */
  usList: () => Result<{ entries: UsListEntry[]; source: string }>;
  market: Pick<MarketData, "dailyBars">;
  queue: SyncQueue;
  now: () => number;
  newId: () => string;
  sleep: (ms: number) => Promise<void>;
  log: Logger;
  /**
   * The whole-market snapshot, rebuilt from the store once a run is done (a copy: readers fall back
   * to the per-symbol chunks while it is missing or behind the store).
   */
  snapshots?: {
    rebuild(market: "CN" | "US", runId: string): Promise<{ published: boolean; bytes: number; series: number }>;
  };
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Reads the whole list; throws `SyncRetry` when a page keeps failing. */
async function readList(d: SyncDeps): Promise<{ rows: UniverseRow[]; total: number; requests: number }> {
  const rows: UniverseRow[] = [];
  let total = 0;
  let requests = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    let got: { rows: UniverseRow[]; total: number } | null = null;
    let why = "";
    for (let attempt = 1; attempt <= PAGE_ATTEMPTS && !got; attempt++) {
      if (attempt > 1) await d.sleep(1000 * attempt);
      requests += 1;
      const r = await d.feed.page(page);
      if (r.ok) got = r.value;
      else why = r.error.message;
    }
    if (!got) throw new SyncRetry(`list page ${page} failed ${PAGE_ATTEMPTS} times: ${why}`);
    total = Math.max(total, got.total);
    rows.push(...got.rows);
    if (got.rows.length === 0 || page * d.feed.pageSize >= total) break;
  }
  return { rows, total, requests };
}

/** Sends every pending batch of a run. */
async function sendPending(d: SyncDeps, runId: string): Promise<number> {
  const pending = await d.store.pendingBatches(runId);
  for (let i = 0; i < pending.length; i += SEND_CHUNK)
    await d.queue.sendBatch(
      pending.slice(i, i + SEND_CHUNK).map((batch) => ({ body: { kind: "sync.batch", runId, batch } })),
    );
  return pending.length;
}

/** Marks a run done when its last batch is in (a US run's as-of date is read from what it stored). */
async function finishIfComplete(d: SyncDeps, run: SyncRun | null): Promise<void> {
  if (run && run.status === "running" && run.batchesDone >= run.batchesTotal) {
    const asOf = run.market === "US" ? ((await d.store.commonLastDate("US")) ?? run.asOf) : run.asOf;
    await d.store.updateRun(run.id, { status: "done", finishedAt: d.now(), asOf });
    d.log.info("sync_done", { runId: run.id, asOf: run.asOf, failed: run.failed, requests: run.requests });
    if (d.snapshots) {
      try {
        const built = await d.snapshots.rebuild(run.market, run.id);
        d.log.info("sync_snapshot", { runId: run.id, ...built });
      } catch (e) {
        d.log.warn("sync_snapshot_failed", { runId: run.id, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}

/** A run just opened: running, nothing counted yet. */
export function newRun(id: string, market: "CN" | "US", startedAt: number): SyncRun {
  return {
    id,
    market,
    status: "running",
    asOf: null,
    universe: 0,
    delisted: 0,
    batchesTotal: 0,
    batchesDone: 0,
    appended: 0,
    fetched: 0,
    skipped: 0,
    failed: 0,
    requests: 0,
    listRequests: 0,
    error: null,
    startedAt,
    finishedAt: null,
  };
}

/** Plans a US run: the list upserted, symbols gone from it delisted, every symbol and the index fetched. */
async function planUs(d: SyncDeps, run: SyncRun): Promise<SyncRun> {
  const list = d.usList();
  if (!list.ok) {
    // A list that does not parse is the operator's to fix: the run fails with the reason at once.
    const failed = { status: "failed" as const, error: list.error.message, finishedAt: d.now() };
    await d.store.updateRun(run.id, failed);
    d.log.warn("sync_list_invalid", { runId: run.id, market: "US", error: list.error.message });
    return { ...run, ...failed };
  }
  const seenOn = isoDate(d.now());
  await d.store.upsertUsUniverse(list.value.entries, seenOn, d.now());
  const delisted = await d.store.markOffUsList(
    list.value.entries.map((e) => e.ticker),
    d.now(),
  );
  const batches = planUsBatches(
    list.value.entries.map((e) => `US.${e.ticker}`),
    US_SYNC_INDICES,
  );
  await d.store.addBatches(run.id, batches, d.now());
  const patch = { universe: list.value.entries.length, delisted, batchesTotal: batches.length };
  await d.store.updateRun(run.id, patch);
  d.log.info("sync_planned", { runId: run.id, market: "US", source: list.value.source, ...patch });
  return { ...run, ...patch };
}

/** Opens (or resumes) a run and sends its batches. Idempotent: a redelivered start resumes. */
export async function startSync(d: SyncDeps, market: "CN" | "US" = "CN"): Promise<SyncRun> {
  let run = await d.store.runningRun(market);
  if (run && d.now() - run.startedAt > RUN_STALE_MS) {
    await d.store.updateRun(run.id, {
      status: "failed",
      error: "superseded: the run did not finish within 20 h",
      finishedAt: d.now(),
    });
    run = null;
  }
  if (!run) {
    const fresh = newRun(d.newId(), market, d.now());
    await d.store.createRun(fresh);
    run = fresh;
  }
  if (run.batchesTotal === 0 && market === "US") run = await planUs(d, run);
  else if (run.batchesTotal === 0) {
    const list = await readList(d);
    const seenOn = listTradeDate(list.rows) ?? isoDate(d.now());
    await d.store.upsertUniverse(list.rows, seenOn, d.now());
    // Only a complete list may delist: a short read (provider trouble) must not empty the market.
    const complete = list.rows.length > 0 && list.rows.length >= list.total;
    const delisted = complete ? await d.store.markUnseenDelisted(market, seenOn, d.now()) : 0;
    const ids = list.rows.map((r) => r.id);
    const [heads, failed] = await Promise.all([d.store.seriesHeads(ids), d.store.failedSymbols()]);
    const plan = planSync(list.rows, heads, failed);
    const batches = planBatches(plan, SYNC_INDICES);
    await d.store.addBatches(run.id, batches, d.now());
    await d.store.updateRun(run.id, {
      asOf: plan.tradeDate ?? seenOn,
      universe: list.rows.length,
      delisted,
      batchesTotal: batches.length,
      skipped: plan.skipped,
      listRequests: list.requests,
      requests: list.requests,
      ...(complete ? {} : { error: `list incomplete: ${list.rows.length} of ${list.total} rows; nothing delisted` }),
    });
    run = {
      ...run,
      asOf: plan.tradeDate ?? seenOn,
      universe: list.rows.length,
      delisted,
      batchesTotal: batches.length,
      skipped: plan.skipped,
    };
    d.log.info("sync_planned", {
      runId: run.id,
      rows: list.rows.length,
      append: plan.append.length,
      fetch: plan.fetch.length,
      skipped: plan.skipped,
      batches: batches.length,
    });
  }
  if (run.status !== "running") return run;
  const sent = await sendPending(d, run.id);
  if (sent === 0) await finishIfComplete(d, { ...run, batchesDone: run.batchesTotal });
  return run;
}

/** True for failures a later attempt may not see (rate limits, 5xx, timeouts, an open breaker). */
const transient = (code: string): boolean => code === "rate_limited" || code === "upstream_unavailable";

/** Does one batch; `attempts` is the queue's delivery count. */
export async function runSyncBatch(d: SyncDeps, runId: string, batchNo: number, attempts: number): Promise<void> {
  const [b, run] = await Promise.all([d.store.batch(runId, batchNo), d.store.run(runId)]);
  if (!b || !run) throw new SyncPermanent(`no batch ${batchNo} in sync run ${runId}`);
  if (b.state === "done" || run.status !== "running") return;
  const outcome: BatchOutcome = { appended: 0, fetched: 0, failures: [], succeeded: [], requests: 0 };
  if (b.mode === "append") {
    const written = await d.store.appendBars(b.items, d.now());
    outcome.appended = written;
    // appendBars skips items without a stored series; the planner only appends onto stored ones.
    outcome.succeeded = b.items.map((i) => i.id);
  } else {
    let transientFailures = 0;
    for (const id of b.items) {
      const kind = isIndex(id) ? ("index" as const) : ("stock" as const);
      // Only what this run fetched counts as fresh: a series appended yesterday must be refetched.
      const r = await d.market.dailyBars(id, { days: MIN_SYNC_BARS, kind, fresherThan: run.startedAt });
      const tried = r.ok ? r.value.provenance.attempts.filter((a) => a.outcome !== "skipped").length : 1;
      outcome.requests += Math.max(1, tried);
      if (r.ok && !r.value.provenance.stale && r.value.bars.length > 0) {
        outcome.fetched += 1;
        outcome.succeeded.push(id);
        continue;
      }
      const reason = r.ok
        ? (r.value.provenance.notes[0] ?? "providers failed; cached bars kept")
        : `${r.error.code}: ${r.error.message}`;
      // A US ticker the provider does not know is gone (delisted or renamed): it leaves the universe.
      if (!r.ok && r.error.code === "not_found" && run.market === "US" && kind === "stock")
        (outcome.notFound ??= []).push(id);
      if (!r.ok ? transient(r.error.code) : true) transientFailures += 1;
      outcome.failures.push({ symbolId: id, reason });
    }
    if (transientFailures > 0 && attempts < BATCH_DELIVERIES)
      throw new SyncRetry(`${transientFailures} of ${b.items.length} fetches failed on transient upstream errors`);
  }
  await finishIfComplete(d, await d.store.completeBatch(runId, batchNo, outcome, d.now()));
}

/** A dead-lettered batch settles with all its symbols failed, so the run can finish. */
export async function settleDeadBatch(d: SyncDeps, runId: string, batchNo: number, reason: string): Promise<void> {
  const b = await d.store.batch(runId, batchNo);
  if (!b || b.state === "done") return;
  const ids = b.mode === "append" ? b.items.map((i) => i.id) : b.items;
  const run = await d.store.completeBatch(
    runId,
    batchNo,
    {
      appended: 0,
      fetched: 0,
      failures: ids.map((symbolId) => ({ symbolId, reason: `dead-lettered: ${reason}` })),
      succeeded: [],
      requests: 0,
    },
    d.now(),
  );
  await finishIfComplete(d, run);
}
