/**
 * The market sync inside workerd with real D1, against the fake upstream's whole 5,300-symbol market
 * (test/support/fake-upstream/fake-market.ts, served under the `/sync` prefix so no other test's
 * fixtures meet it): a live screening before any sync is refused; the first sync loads the universe
 * (industries, ST, boards) and 320+ bars per symbol; a screening over the synced store scans every
 * synced symbol of the board with real industries in L3; the next day appends the list's bar with one
 * list pass, refetching only the corporate action, skipping the suspension and delisting the symbol
 * the list lost; faults (429 and 5xx bursts, a malformed page, a batch redelivered twice, a run killed
 * midway) end in a complete run with nothing counted twice; a symbol that failed is listed and
 * fetched first next run; and the sync queue itself delivers to the consumer.
 */
import { describe, expect, inject, it } from "vitest";
import { createApp } from "../../worker/app";
import type { BackgroundDeps } from "../../worker/background/background-deps";
import { backgroundDeps } from "../../worker/coordinator/background-wiring";
import { createBackgroundPort } from "../../worker/background/background-port";
import { createBackgroundHandlers } from "../../worker/background/handlers";
import { createQueueConsumer, type ConsumedMessage } from "../../worker/background/queue-consumer";
import { boardFilter } from "../../worker/background/universe";
import type { SyncStatus } from "../../worker/contracts/market-sync";
import type { ScreeningResult } from "../../worker/contracts/screening";
import type { TaskView } from "../../worker/contracts/task";
import { createLogger } from "../../worker/lib/log";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { MarketSnapshots } from "../../worker/storage/market-snapshot-repo";
import { D1SyncStore } from "../../worker/storage/market-sync-repo";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { fakeBars, fakeStocks, type FakeMarketSpec } from "../support/fake-upstream/fake-market";
import { newRun } from "../../worker/background/market-sync/sync-jobs";
import { syncQueueDriver } from "./market-sync-driver";
import { testEnv } from "./test-env";

const upstream = inject("upstreamUrl");
const LIST = "/sync/push2/api/qt/clist/get";
const KLINE = "/sync/push2his/api/qt/stock/kline/get";
const silent = createLogger(() => {});
const store = new D1SyncStore(testEnv.DB);
const cache = new D1MarketCache(createDb(testEnv.DB));

/** The worker's bindings in live mode over the `/sync` part of the fake upstream (Tencent and Yahoo answer 404). */
const liveEnv = {
  ...testEnv,
  MARKET_DATA: "live",
  EASTMONEY_BASE_URL: `${upstream}/sync`,
  TENCENT_BASE_URL: `${upstream}/sync-none`,
  YAHOO_BASE_URL: `${upstream}/sync-none`,
  ADMIN_TOKEN: "admin-sync-test-token-0123456789",
} as unknown as typeof testEnv & { ADMIN_TOKEN: string };

const SYMBOLS = 5300;
const day0: FakeMarketSpec = { symbols: SYMBOLS, seed: 11, start: "2025-07-01", day: "2026-11-25" };
const ACTION = "SZ.000041"; // a cash dividend on day 1 (prices before scale by 0.95)
const SUSPENDED = "SH.600003";
const DELISTED = "SZ.300070";
const day1: FakeMarketSpec = {
  ...day0,
  day: "2026-11-26",
  actions: [{ id: ACTION, exDate: "2026-11-26", factor: 0.95 }],
  suspended: [{ id: SUSPENDED, dates: ["2026-11-26"] }],
  delisted: [{ id: DELISTED, from: "2026-11-26" }],
};

async function fixtures(list: unknown[]): Promise<void> {
  const res = await fetch(`${upstream}/__fixtures`, { method: "POST", body: JSON.stringify(list) });
  expect(res.status).toBe(204);
}

/** Serves `spec` as the market (ahead of any earlier spec). */
async function serve(spec: FakeMarketSpec): Promise<void> {
  await fixtures([
    { path: LIST, body: null, market: spec, first: true },
    { path: KLINE, body: null, market: spec, first: true },
  ]);
}

async function upstreamRequests(path: string): Promise<{ path: string; query: string }[]> {
  const all = (await (await fetch(`${upstream}/__requests`)).json()) as { path: string; query: string }[];
  return all.filter((r) => r.path === path);
}

/** The sync's queue, driven by hand over the live bindings. */
const queueDriver = () => syncQueueDriver(liveEnv);

async function status(): Promise<SyncStatus> {
  const res = await createApp().request("http://wyckoff.test/api/market/sync", {}, liveEnv);
  expect(res.status).toBe(200);
  return (await res.json()) as SyncStatus;
}

/** Background deps in live mode whose queue captures messages (the screening's own fan-out). */
function liveBackground(): { deps: BackgroundDeps; sent: unknown[] } {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as BackgroundDeps["queue"];
  return { deps: backgroundDeps(liveEnv, { queue, log: silent }), sent };
}

/** Runs one background message; answers the dead letters it produced. */
async function deliverBackground(deps: BackgroundDeps, body: unknown): Promise<{ reason: string }[]> {
  const dead: { reason: string }[] = [];
  const message: ConsumedMessage = { id: crypto.randomUUID(), attempts: 1, body, ack: () => {}, retry: () => {} };
  await createQueueConsumer(createBackgroundHandlers(deps))(
    { queue: "wyckoff-edge-background", messages: [message] },
    { send: async (d: { reason: string }) => void dead.push(d) },
    silent,
  );
  return dead;
}

async function liveScreening(): Promise<{ task: TaskView; result: ScreeningResult }> {
  const { deps, sent } = liveBackground();
  const r = await createBackgroundPort(deps).submit({
    kind: "screen_stocks",
    input: { board: "all", market: "cn" },
    ownerId: "local",
    sessionId: null,
  });
  if (!r.ok) throw new Error(r.error.message);
  await deliverBackground(deps, { kind: "task.run", taskId: r.value.task.id });
  for (let i = 0; i < sent.length; i++) {
    const m = sent[i] as { kind: string };
    if (m.kind === "screen.batch") await deliverBackground(deps, m);
  }
  const row = await createDb(testEnv.DB).select().from(tasksTable).all();
  const t = row.find((x) => x.id === r.value.task.id);
  if (!t) throw new Error("task vanished");
  return { task: { status: t.status } as TaskView, result: t.result as ScreeningResult };
}

describe("market sync over a whole fake market (real D1)", () => {
  it("refuses a live screening before any sync, naming the fix", async () => {
    const { task, result } = await liveScreening();
    expect(task.status).toBe("succeeded");
    expect(result.ok).toBe(false);
    expect(result.summary.total_scanned).toBe(0);
    expect(result.notes.join(" ")).toMatch(/never been synced.*POST \/api\/admin\/market-sync/);
    // Whole-market backtests and strategy decisions refuse too (their task fails with the reason).
    for (const kind of ["run_backtest", "generate_strategy_decision"] as const) {
      const { deps } = liveBackground();
      const r = await createBackgroundPort(deps).submit({
        kind,
        input: { market: "cn" },
        ownerId: "local",
        sessionId: null,
      });
      if (!r.ok) throw new Error(r.error.message);
      const dead = await deliverBackground(deps, { kind: "task.run", taskId: r.value.task.id });
      expect(dead.map((x) => x.reason).join(" ")).toMatch(/never been synced.*POST \/api\/admin\/market-sync/);
    }
    const s = await status();
    expect(s.enabled).toBe(true);
    expect(s.latest).toBeNull();
    expect(s.coverage).toBeNull();
  });

  it("syncs the 5,300-symbol market end to end; the screening scans every synced symbol with real industries", async () => {
    await serve(day0);
    const q = queueDriver();
    q.send({ kind: "sync.start", market: "CN" });
    await q.drain();
    expect(q.dead).toEqual([]);
    const run = await store.latestRun("CN");
    expect(run?.status).toBe("done");
    expect(run?.asOf).toBe(day0.day);
    expect(run?.universe).toBe(SYMBOLS);
    expect(run?.failed).toBe(0);
    expect(run?.fetched).toBe(SYMBOLS + 4); // every stock and the four indices
    expect(run?.batchesDone).toBe(run?.batchesTotal);

    const stored = await cache.listSymbols("CN", "stock");
    expect(stored.length).toBe(SYMBOLS);
    const expected = new Map(fakeStocks(day0).map((s) => [s.id, s]));
    for (const s of stored) expect(s.industry).toBe(expected.get(s.id)?.industry);
    // Stored history equals what the upstream serves (a sample across boards), ≥ 320 bars each.
    for (const id of ["SH.600000", "SZ.000033", "SZ.300061", "SH.688091", "BJ.830097"]) {
      const series = await cache.getSeries(id);
      expect(series?.bars.length).toBeGreaterThanOrEqual(320);
      expect(series?.bars.at(-1)).toMatchObject(fakeBars(day0, id).at(-1) ?? {});
    }
    // The finished run wrote the whole-market snapshot the screening below reads.
    const snap = await new MarketSnapshots(testEnv.DB, testEnv.SPILLS).current("CN");
    expect(snap?.meta).toMatchObject({ market: "CN", runId: run?.id, asOf: day0.day });
    expect(snap?.ids.length).toBe(SYMBOLS);
    const s = await status();
    expect(s.coverage).toMatchObject({ universe: SYMBOLS, current: SYMBOLS, asOf: day0.day });
    expect(s.coverage?.statement).toBe(`5,300 of 5,300 symbols, bars as of ${day0.day}`);
    expect(s.storage?.bytesPerSymbol).toBeGreaterThan(1000);

    const { result } = await liveScreening();
    expect(result.ok).toBe(true);
    expect(result.universe).toBe("CN");
    expect(result.summary.total_scanned).toBe(boardFilter(stored, "all").length);
    expect(result.coverage?.current).toBe(SYMBOLS);
    expect(result.notes[0]).toMatch(/^Coverage: 5,300 of 5,300 symbols/);
    const industries = new Set(fakeStocks(day0).map((x) => x.industry));
    expect(result.top_sectors.length).toBeGreaterThan(0);
    for (const sector of result.top_sectors) expect(industries.has(sector.sector)).toBe(true);
  }, 900_000); // a hang cap: 5,300 K-line fetches through workerd on a loaded 2-core machine

  it("next day: one list pass appends every bar; only the corporate action is refetched; the suspension is skipped and the lost symbol delisted", async () => {
    await serve(day1);
    const before = (await upstreamRequests(KLINE)).length;
    const q = queueDriver();
    q.send({ kind: "sync.start", market: "CN" });
    await q.drain();
    const run = await store.latestRun("CN");
    expect(run?.status).toBe("done");
    expect(run?.asOf).toBe(day1.day);
    expect(run?.universe).toBe(SYMBOLS - 1);
    expect(run?.delisted).toBe(1);
    expect(run?.fetched).toBe(1 + 4); // the dividend and the four indices
    expect(run?.appended).toBe(SYMBOLS - 3); // all but the dividend, the suspension and the delisted one
    expect(run?.skipped).toBe(1);
    expect(run?.failed).toBe(0);
    const klines = (await upstreamRequests(KLINE)).slice(before);
    expect(klines.some((r) => r.query.includes("secid=0.000041"))).toBe(true);
    expect(klines.length).toBeLessThanOrEqual(2 * 5); // no per-symbol fetch for appended bars

    // The appended bar is the list's; the refetched history is re-adjusted for the dividend.
    expect((await cache.getSeries("SH.600000"))?.bars.at(-1)).toMatchObject(fakeBars(day1, "SH.600000").at(-1) ?? {});
    const adjusted = (await cache.getSeries(ACTION))?.bars ?? [];
    const served = fakeBars(day1, ACTION);
    expect(adjusted.at(-1)).toMatchObject(served.at(-1) ?? {});
    expect(adjusted.at(-2)?.close).toBe(served.at(-2)?.close);
    expect((await cache.getSymbol(DELISTED))?.status).toBe("delisted");
    expect((await cache.getSymbol(SUSPENDED))?.status).toBe("suspended");
    expect((await new MarketSnapshots(testEnv.DB, testEnv.SPILLS).current("CN"))?.meta).toMatchObject({
      runId: run?.id,
      asOf: day1.day,
    });
    const s = await status();
    expect(s.coverage?.universe).toBe(SYMBOLS - 1);
    expect(s.coverage?.current).toBe(SYMBOLS - 2); // the suspended symbol's bars end the day before
  }, 300_000);

  it("faults: 429 and 5xx bursts, a malformed page, a batch redelivered twice, a run killed midway → one complete run, nothing counted twice; a failed symbol is listed and fetched first next run", async () => {
    // Day 2: 40 dividends (two fetch batches of the sync), so the K-line faults meet real work.
    const movers = fakeStocks(day0)
      .slice(1000, 1040)
      .map((x) => x.id);
    const day2: FakeMarketSpec = {
      ...day1,
      day: "2026-11-27",
      actions: [...(day1.actions ?? []), ...movers.map((id) => ({ id, exDate: "2026-11-27", factor: 0.9 }))],
    };
    await serve(day2);
    await fixtures([
      { path: LIST, query: "pn=3&", body: "{not json", contentType: "application/json", times: 1, first: true },
      { path: LIST, status: 500, body: "", times: 2, first: true },
      { path: LIST, status: 429, body: "", times: 2, first: true },
      { path: KLINE, status: 503, body: "", times: 3, first: true },
      { path: KLINE, status: 429, body: "", times: 4, first: true },
    ]);
    const q = queueDriver();
    q.send({ kind: "sync.start", market: "CN" });
    // The start pages through the faults (the queue redelivers it once the breaker opened), then plans.
    for (let i = 0; i < 4 && !((await store.runningRun("CN"))?.batchesTotal ?? 0); i++) await q.deliverSome(1);
    const run0 = await store.runningRun("CN");
    expect(run0?.asOf).toBe(day2.day);
    const planned = run0?.batchesTotal ?? 0;
    expect(planned).toBeGreaterThan(10);
    const redelivered = q.pending[0]?.body;
    await q.drain(8);
    q.pending.length = 0; // killed: the remaining messages are lost
    expect((await store.runningRun("CN"))?.status).toBe("running");
    // A batch delivered again (twice) after it was done changes nothing.
    const counts = await store.runningRun("CN");
    q.send(redelivered);
    q.send(redelivered);
    await q.drain();
    expect(await store.runningRun("CN")).toMatchObject({
      appended: counts?.appended,
      fetched: counts?.fetched,
      batchesDone: counts?.batchesDone,
    });
    // The next start resumes the same run and finishes it.
    q.send({ kind: "sync.start", market: "CN" });
    await q.drain();
    const run = await store.latestRun("CN");
    expect(run?.id).toBe(run0?.id);
    expect(run?.status).toBe("done");
    expect(run?.batchesDone).toBe(planned);
    expect(run?.failed).toBe(0);
    // Refetched: the 40 dividends, the symbol back from its suspension (a gap) and the indices.
    expect(run?.fetched).toBe(movers.length + 1 + 4);
    expect(run?.appended).toBe(SYMBOLS - 1 - movers.length - 1);
    for (const id of movers)
      expect((await cache.getSeries(id))?.bars.at(-2)?.close).toBe(fakeBars(day2, id).at(-2)?.close);

    // Day 3: one symbol's K-line keeps failing → listed as failed; day 4: fetched first, cleared.
    const day3: FakeMarketSpec = {
      ...day2,
      day: "2026-11-30",
      actions: [...(day2.actions ?? []), { id: "SH.600007", exDate: "2026-11-30", factor: 0.9 }],
    };
    await serve(day3);
    // Two requests per delivery (one retry inside the client), four deliveries: it never gets through.
    await fixtures([{ path: KLINE, query: "secid=1.600007", status: 500, body: "", times: 8, first: true }]);
    q.send({ kind: "sync.start", market: "CN" });
    await q.drain();
    const failedRun = await store.latestRun("CN");
    expect(failedRun?.status).toBe("done");
    expect(failedRun?.failed).toBe(1);
    const s3 = await status();
    expect(s3.failuresTotal).toBe(1);
    expect(s3.failures[0]).toMatchObject({ symbol: "SH.600007" });
    expect(s3.failures[0]?.reason).toMatch(/HTTP 500/);

    const day4: FakeMarketSpec = { ...day3, day: "2026-12-01" };
    await serve(day4);
    const before = (await upstreamRequests(KLINE)).length;
    q.send({ kind: "sync.start", market: "CN" });
    await q.drain();
    const healed = await store.latestRun("CN");
    expect(healed?.status).toBe("done");
    expect(healed?.failed).toBe(0);
    expect((await upstreamRequests(KLINE)).slice(before).some((r) => r.query.includes("secid=1.600007"))).toBe(true);
    expect((await status()).failuresTotal).toBe(0);
    expect((await cache.getSeries("SH.600007"))?.bars.at(-1)).toMatchObject(fakeBars(day4, "SH.600007").at(-1) ?? {});
  }, 600_000);

  it("operators start a sync through the admin route; offline there is nothing to sync", async () => {
    const sent: unknown[] = [];
    const env = {
      ...liveEnv,
      MARKET_SYNC_QUEUE: { send: async (b: unknown) => void sent.push(b) },
    } as unknown as typeof liveEnv;
    const admin = { method: "POST", headers: { authorization: `Bearer ${liveEnv.ADMIN_TOKEN}` } };
    const offline = await createApp().request("http://wyckoff.test/api/admin/market-sync", admin, {
      ...env,
      MARKET_DATA: "offline",
    });
    expect(offline.status).toBe(409);
    expect(((await offline.json()) as { error: { code: string } }).error.code).toBe("conflict");
    const denied = await createApp().request("http://wyckoff.test/api/admin/market-sync", { method: "POST" }, env);
    expect(denied.status).toBe(401);
    expect(sent).toEqual([]);
    const res = await createApp().request("http://wyckoff.test/api/admin/market-sync", admin, env);
    expect(res.status).toBe(202);
    expect(sent).toEqual([{ kind: "sync.start", market: "CN" }]);
  });

  it("the real sync queue delivers a batch to the worker's consumer, which settles it once", async () => {
    const id = "SH.600010";
    const last = (await cache.getSeries(id))?.bars.at(-1);
    if (!last) throw new Error("no stored series");
    const next = { ...last, date: "2026-12-02", close: last.close, volume: last.volume + 100 };
    const runId = `sync_realqueue${Date.now()}`;
    const now = Date.now();
    // Newer than the runs above, so it is the latest.
    await store.createRun(newRun(runId, "CN", now + 1));
    await store.updateRun(runId, { batchesTotal: 1 });
    await store.addBatches(runId, [{ batch: 0, mode: "append", items: [{ id, bar: next }] }], Date.now());
    await testEnv.MARKET_SYNC_QUEUE.send({ kind: "sync.batch", runId, batch: 0 });
    await testEnv.MARKET_SYNC_QUEUE.send({ kind: "sync.batch", runId, batch: 0 });
    const deadline = Date.now() + 60_000;
    let run = await store.latestRun("CN");
    while (run?.status !== "done" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      run = await store.latestRun("CN");
    }
    expect(run).toMatchObject({ id: runId, status: "done", batchesDone: 1, appended: 1 });
    expect((await cache.getSeries(id))?.bars.at(-1)).toMatchObject({ date: "2026-12-02", volume: next.volume });
  }, 90_000);
});
