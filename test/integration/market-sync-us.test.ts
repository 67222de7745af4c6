/**
 * The US universe sync inside workerd with real D1 and Queues, against the fake upstream's Yahoo
 * chart endpoint (test/support/fake-upstream/fake-market.ts `FakeUsSpec`, served under `/us-sync`):
 * a live US screening before any sync is refused, naming the fix; the first sync resolves every
 * symbol of the `US_UNIVERSE` list through Yahoo (name, venue, currency, type; ≥ 320 bars), lists
 * the ticker Yahoo does not know as failed and delisted, and leaves a ticker someone analyzed outside
 * the list alone; a US screening then scans exactly the synced stocks with the list's sectors in L3
 * and states the coverage; the regime's breadth counts the synced universe, not whatever is cached;
 * the next day every symbol is fetched incrementally, a split re-adjusts its history, a rename shows
 * and a ticker gone from the list leaves the universe.
 */
import { describe, expect, inject, it } from "vitest";
import { createApp } from "../../worker/app";
import type { BackgroundDeps } from "../../worker/background/background-deps";
import { backgroundDeps } from "../../worker/coordinator/background-wiring";
import { createBackgroundPort } from "../../worker/background/background-port";
import { createBackgroundHandlers } from "../../worker/background/handlers";
import { createQueueConsumer, type ConsumedMessage } from "../../worker/background/queue-consumer";
import { loadConfig } from "../../worker/config";
import type { SyncStatus } from "../../worker/contracts/market-sync";
import type { ScreeningResult } from "../../worker/contracts/screening";
import { createLogger } from "../../worker/lib/log";
import { createMarketData } from "../../worker/market/create-market-data";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { D1SyncStore } from "../../worker/storage/market-sync-repo";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { readRegime } from "../../worker/tools/handlers/read-regime";
import { inProcessScreener } from "../../worker/mcp/in-process-screener";
import { fakeUsBars, fakeUsListing, type FakeUsSpec } from "../support/fake-upstream/fake-market";
import { syncQueueDriver } from "./market-sync-driver";
import { testEnv } from "./test-env";

const upstream = inject("upstreamUrl");
const CHART = "/us-sync/v8/finance/chart/";
const silent = createLogger(() => {});
const store = new D1SyncStore(testEnv.DB);
const cache = new D1MarketCache(createDb(testEnv.DB));

const SECTORS = ["Information Technology", "Health Care", "Financials", "Energy", "Industrials"];
/** 60 plain tickers (UAA … UCH), one with an exchange-style class suffix, an ETF and one Yahoo does not know. */
const TICKERS = Array.from(
  { length: 60 },
  (_, i) => `U${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
);
const CLASS = "BRK.B"; // stored as Yahoo's US.BRK-B
const ETF = "UETF";
const GONE = "ZZGONE";
const SPLIT = "UAC";
const RENAMED = "UAD";
const LEFT = "UAE";

/** The `US_UNIVERSE` setting: `SYMBOL|Name|Sector` lines, and plain symbols. */
function listSetting(tickers: readonly string[]): string {
  const lines = tickers.map((t, i) => `${t}|List name ${t}|${SECTORS[i % SECTORS.length]}`);
  return [`# test universe`, ...lines, `${CLASS}|Berkshire Hathaway|Financials`, `${ETF}, ${GONE}`].join("\n");
}

const day0: FakeUsSpec = { seed: 5, start: "2025-07-01", day: "2026-11-25", unknown: [GONE], etf: [ETF] };
const day1: FakeUsSpec = {
  ...day0,
  day: "2026-11-26",
  actions: [{ ticker: SPLIT, exDate: "2026-11-26", factor: 0.5 }],
  renamed: [{ ticker: RENAMED, name: "Renamed Corp." }],
};

function envFor(tickers: readonly string[]) {
  return {
    ...testEnv,
    MARKET_DATA: "live",
    YAHOO_BASE_URL: `${upstream}/us-sync`,
    EASTMONEY_BASE_URL: `${upstream}/us-none`,
    TENCENT_BASE_URL: `${upstream}/us-none`,
    US_UNIVERSE: listSetting(tickers),
  } as unknown as typeof testEnv;
}
const liveEnv = envFor(TICKERS);
/** Stocks the list names that Yahoo resolves as stocks (not the ETF, not the unknown one). */
const STOCKS = TICKERS.length + 1;

async function serve(spec: FakeUsSpec): Promise<void> {
  const res = await fetch(`${upstream}/__fixtures`, {
    method: "POST",
    body: JSON.stringify([{ path: CHART, body: null, usMarket: spec, first: true }]),
  });
  expect(res.status).toBe(204);
}

async function chartRequests(): Promise<{ path: string; query: string }[]> {
  const all = (await (await fetch(`${upstream}/__requests`)).json()) as { path: string; query: string }[];
  return all.filter((r) => r.path.startsWith(CHART));
}

async function status(env = liveEnv, query = "?market=us"): Promise<Response> {
  return createApp().request(`http://wyckoff.test/api/market/sync${query}`, {}, env);
}

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

async function deliver(deps: BackgroundDeps, body: unknown): Promise<void> {
  const message: ConsumedMessage = { id: crypto.randomUUID(), attempts: 1, body, ack: () => {}, retry: () => {} };
  await createQueueConsumer(createBackgroundHandlers(deps))(
    { queue: "wyckoff-edge-background", messages: [message] },
    { send: async () => {} },
    silent,
  );
}

async function usScreening(): Promise<ScreeningResult> {
  const { deps, sent } = liveBackground();
  const r = await createBackgroundPort(deps).submit({
    kind: "screen_stocks",
    input: { board: "all", market: "us" },
    ownerId: "local",
    sessionId: null,
  });
  if (!r.ok) throw new Error(r.error.message);
  await deliver(deps, { kind: "task.run", taskId: r.value.task.id });
  for (let i = 0; i < sent.length; i++)
    if ((sent[i] as { kind: string }).kind === "screen.batch") await deliver(deps, sent[i]);
  const rows = await createDb(testEnv.DB).select().from(tasksTable).all();
  const t = rows.find((x) => x.id === r.value.task.id);
  if (!t) throw new Error("task vanished");
  return t.result as ScreeningResult;
}

describe("US universe sync through Yahoo (real D1)", () => {
  it("refuses a live US screening before any sync, naming the fix; the status route checks its market", async () => {
    const result = await usScreening();
    expect(result.ok).toBe(false);
    expect(result.summary.total_scanned).toBe(0);
    expect(result.notes.join(" ")).toMatch(/US universe has never been synced.*market-sync\?market=us/);
    const s = (await (await status()).json()) as SyncStatus;
    expect(s.latest).toBeNull();
    expect(s.coverage).toBeNull();
    // The MCP's in-process funnel refuses too.
    const mcp = await inProcessScreener(cache, "live", store).run({ board: "all", market: "us", limit: 5 });
    if (!mcp.ok) throw new Error(mcp.error.message);
    expect(mcp.value.summary.total_scanned).toBe(0);
    expect(mcp.value.notes.join(" ")).toMatch(/US universe has never been synced/);
    const bad = await status(liveEnv, "?market=jp");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
  });

  it("resolves every listed symbol through Yahoo; the screening and the regime's breadth read the synced universe", async () => {
    // A ticker someone analyzed outside the list: cached, never synced.
    const outside = { ...fakeUsListing(day0, "UZZ"), id: "US.UZZ" };
    await cache.upsertSymbols(
      [
        {
          id: outside.id,
          market: "US",
          exchange: "US",
          code: "UZZ",
          name: "Outside Co",
          pinyin: "",
          kind: "stock",
          board: null,
          industry: null,
          status: "listed",
          currency: "USD",
          simulated: false,
        },
      ],
      Date.now(),
    );
    await cache.putSeries({
      symbolId: outside.id,
      bars: fakeUsBars(day0, "UZZ"),
      adjust: "none",
      origin: "yahoo",
      fetchedAt: Date.now(),
      simulated: false,
    });
    await serve(day0);
    const q = syncQueueDriver(liveEnv);
    q.send({ kind: "sync.start", market: "US" });
    await q.drain();
    expect(q.dead).toEqual([]);
    const run = await store.latestRun("US");
    expect(run).toMatchObject({ status: "done", asOf: day0.day, universe: TICKERS.length + 3, failed: 1 });
    expect(run?.fetched).toBe(TICKERS.length + 2 + 1); // the list but the unknown one, and the index
    expect(run?.batchesDone).toBe(run?.batchesTotal);

    // Resolved through Yahoo: its name, venue, currency and type; the list's sector; ≥ 320 bars.
    for (const t of [TICKERS[0] ?? "", "BRK-B"]) {
      const row = await testEnv.DB.prepare(
        `SELECT name, venue, currency, kind, industry, status, last_seen FROM market_symbols WHERE id = ?1`,
      )
        .bind(`US.${t}`)
        .first<Record<string, string>>();
      const listing = fakeUsListing(day0, t);
      expect(row).toMatchObject({
        name: listing.longName,
        venue: listing.fullExchangeName,
        currency: "USD",
        kind: "stock",
        status: "listed",
      });
      expect(row?.last_seen).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const series = await cache.getSeries(`US.${t}`);
      expect(series?.bars.length).toBeGreaterThanOrEqual(320);
      expect(series?.bars.at(-1)).toMatchObject(fakeUsBars(day0, t).at(-1) ?? {});
    }
    expect((await cache.getSymbol(`US.${TICKERS[0]}`))?.industry).toBe(SECTORS[0]);
    expect((await cache.getSymbol(`US.${ETF}`))?.kind).toBe("etf");
    expect((await cache.getSymbol(`US.${GONE}`))?.status).toBe("delisted");
    expect((await cache.getSymbol("US.UZZ"))?.status).toBe("listed"); // outside the list: left alone
    expect((await cache.getSeries("US.SPX"))?.bars.at(-1)?.date).toBe(day0.day);

    const s = (await (await status()).json()) as SyncStatus;
    expect(s.coverage).toMatchObject({ market: "US", universe: STOCKS, current: STOCKS, asOf: day0.day });
    expect(s.failuresTotal).toBe(1);
    expect(s.failures[0]).toMatchObject({ symbol: `US.${GONE}` });
    expect(s.failures[0]?.reason).toMatch(/not_found/);
    // The A-share status does not list US failures.
    expect(((await (await status(liveEnv, "")).json()) as SyncStatus).failuresTotal).toBe(0);

    const result = await usScreening();
    expect(result.ok).toBe(true);
    expect(result.universe).toBe("US");
    expect(result.summary.total_scanned).toBe(STOCKS); // the synced stocks: not the ETF, not UZZ
    expect(result.coverage?.statement).toBe(`${STOCKS} of ${STOCKS} symbols, bars as of ${day0.day}`);
    expect(result.notes[0]).toMatch(/^Coverage: /);
    for (const sector of result.top_sectors) expect([...SECTORS, "Financials"]).toContain(sector.sector);
    const mcp = await inProcessScreener(cache, "live", store).run({ board: "all", market: "us", limit: 5 });
    if (!mcp.ok) throw new Error(mcp.error.message);
    expect(mcp.value.summary.total_scanned).toBe(STOCKS);
    expect(mcp.value.coverage?.current).toBe(STOCKS);

    // Breadth for the regime: every synced stock on the last day, and only those (not UZZ).
    const market = createMarketData({ db: testEnv.DB, config: loadConfig(liveEnv), fetch: (...a) => fetch(...a) });
    const regime = await readRegime(market, "us");
    if (!regime.ok) throw new Error(regime.error.message);
    expect(regime.value.breadth).toMatchObject({ date: day0.day, symbols: STOCKS });
    expect(regime.value.breadth?.aboveMa20Pct).not.toBeNull();
    expect(regime.value.source.notes.join(" ")).toMatch(/market sync's US universe \(\d+ symbols stored\)/);
  }, 300_000);

  it("next day: incremental fetches, a split refetched whole, a rename shows, a ticker gone from the list leaves", async () => {
    await serve(day1);
    const before = (await chartRequests()).length;
    const env = envFor(TICKERS.filter((t) => t !== LEFT));
    const q = syncQueueDriver(env);
    q.send({ kind: "sync.start", market: "US" });
    await q.drain();
    const run = await store.latestRun("US");
    expect(run).toMatchObject({ status: "done", asOf: day1.day, delisted: 1, failed: 1 });
    const requests = (await chartRequests()).slice(before);
    const plain = requests.filter((r) => r.path === `${CHART}${TICKERS[0]}`);
    expect(plain).toHaveLength(1);
    expect(plain[0]?.query).toMatch(/period1=/); // incremental: from the stored last date
    const split = requests.filter((r) => r.path === `${CHART}${SPLIT}`);
    expect(split.map((r) => r.query.includes("period1="))).toEqual([true, false]); // then the whole range
    const bars = (await cache.getSeries(`US.${SPLIT}`))?.bars ?? [];
    const served = fakeUsBars(day1, SPLIT);
    expect(bars.at(-1)).toMatchObject(served.at(-1) ?? {});
    expect(bars.at(-2)?.close).toBe(served.at(-2)?.close);
    expect((await cache.getSymbol(`US.${RENAMED}`))?.name).toBe("Renamed Corp.");
    expect((await cache.getSymbol(`US.${LEFT}`))?.status).toBe("delisted");
    expect((await cache.getSeries(`US.${TICKERS[1]}`))?.bars.at(-1)?.date).toBe(day1.day);
    const s = (await (await status(env)).json()) as SyncStatus;
    expect(s.coverage).toMatchObject({ universe: STOCKS - 1, current: STOCKS - 1, asOf: day1.day });
  }, 300_000);

  it("operators start a US sync (or both) through the admin route; a bad market is a 400", async () => {
    const sent: unknown[] = [];
    const env = {
      ...liveEnv,
      ADMIN_TOKEN: "admin-us-sync-token-0123456789",
      MARKET_SYNC_QUEUE: { send: async (b: unknown) => void sent.push(b) },
    } as unknown as typeof liveEnv;
    const admin = { method: "POST", headers: { authorization: "Bearer admin-us-sync-token-0123456789" } };
    const post = (q: string) => createApp().request(`http://wyckoff.test/api/admin/market-sync${q}`, admin, env);
    expect((await post("?market=us")).status).toBe(202);
    expect((await post("?market=all")).status).toBe(202);
    const bad = await post("?market=mars");
    expect(bad.status).toBe(400);
    expect(sent).toEqual([
      { kind: "sync.start", market: "US" },
      { kind: "sync.start", market: "CN" },
      { kind: "sync.start", market: "US" },
    ]);
  });

  it("a US_UNIVERSE that does not parse fails the run at once with the reason", async () => {
    const env = { ...liveEnv, US_UNIVERSE: "AAPL, not a ticker!" } as unknown as typeof liveEnv;
    const q = syncQueueDriver(env);
    q.send({ kind: "sync.start", market: "US" });
    await q.drain();
    const run = await store.latestRun("US");
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatch(/unreadable symbol/);
    expect(q.pending).toEqual([]);
  });
});
