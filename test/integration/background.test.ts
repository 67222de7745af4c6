/**
 * Background work inside workerd over the offline market: a chat turn starts a screening that fans
 * out through the real queue and reports back as a notification turn; a library-signed webhook starts
 * the same run (bad signature, stale/future timestamp, missing headers, replayed id refused, nothing
 * queued); the tasks API; and the faults: a batch that throws is retried without double counting,
 * cancel during fan-out, a poison message dead-lettered with the task failed, backtests, reports,
 * strategy decisions, query_history and the daily cron.
 */
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import sp500Csv from "../../node_modules/vega-datasets/data/sp500-2000.csv?raw";
import { createApp } from "../../worker/app";
import type { BackgroundDeps } from "../../worker/background/background-deps";
import { backgroundDeps } from "../../worker/coordinator/background-wiring";
import { createBackgroundPort } from "../../worker/background/background-port";
import { startDailyScreening } from "../../worker/background/daily-screening";
import { createBackgroundHandlers } from "../../worker/background/handlers";
import { createQueueConsumer, type ConsumedMessage, type DeadLetter } from "../../worker/background/queue-consumer";
import { coordinatorOf } from "../../worker/background/screen-jobs";
import { boardFilter } from "../../worker/background/universe";
import { BacktestInput, type BacktestResult } from "../../worker/contracts/backtest";
import { replayBacktest } from "../../worker/engine/backtest/replay";
import { resolveParams } from "../../worker/engine/params";
import type { ReportResult, StrategyResult } from "../../worker/contracts/report";
import type { ScreeningResult } from "../../worker/contracts/screening";
import type { TaskView } from "../../worker/contracts/task";
import { formatId } from "../../worker/lib/ids";
import { createLogger } from "../../worker/lib/log";
import { buildOfflineBundle } from "../../worker/market/offline/bundle";
import type { BackgroundKind } from "../../worker/ports/background";
import { createDb } from "../../worker/storage/db";
import { D1MarketCache } from "../../worker/storage/market-cache-repo";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { call, eventually, newSession, postJson, readSession, script, sendAndRead, chunksOf } from "./turn-helpers";
import { testEnv } from "./test-env";

const SECRET = `whsec_${btoa("wyckoff-edge-test-secret-0123456789")}`;
const cache = new D1MarketCache(createDb(testEnv.DB));
const silent = createLogger(() => {});

beforeAll(async () => {
  const bundle = buildOfflineBundle({ sp500Csv });
  await cache.upsertSymbols(bundle.symbols, 0);
  for (const s of bundle.series) await cache.putSeries(s);
}, 120_000); // a hang cap for loading the bundle on a busy machine, not a timing budget

async function getTask(id: string): Promise<TaskView & { result?: unknown }> {
  return (await (await call(`/api/tasks/${id}`)).json()) as TaskView;
}

async function finished(id: string, ms = 20_000): Promise<TaskView> {
  return eventually(async () => {
    const t = await getTask(id);
    return t.status === "queued" || t.status === "running" ? undefined : t;
  }, ms);
}

async function taskCount(): Promise<number> {
  return (await createDb(testEnv.DB).select().from(tasksTable)).length;
}

/** A webhook request signed by the standardwebhooks library (or tampered with by `mutate`). */
function signed(
  body: unknown,
  o: { id?: string; at?: Date; secret?: string; drop?: string } = {},
): { headers: Record<string, string>; body: string } {
  const text = JSON.stringify(body);
  const id = o.id ?? `msg_${crypto.randomUUID()}`;
  const at = o.at ?? new Date();
  const signature = new Webhook(o.secret ?? SECRET).sign(id, at, text);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
  if (o.drop) delete headers[o.drop];
  return { headers, body: text };
}

async function webhook(req: { headers: Record<string, string>; body: string }, secret = SECRET) {
  const env = { ...testEnv, WEBHOOK_SECRET: secret };
  return createApp().request(
    "http://wyckoff.test/api/webhooks/screenings",
    { method: "POST", headers: req.headers, body: req.body },
    env,
  );
}

/** Deps whose queue producer captures messages instead of sending them (drives handlers by hand). */
function capturing(over: Partial<BackgroundDeps> = {}): { deps: BackgroundDeps; sent: unknown[] } {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as BackgroundDeps["queue"];
  return { deps: backgroundDeps(testEnv, { queue, log: silent, ...over }), sent };
}

/** Runs one message through the consumer; answers what the consumer did with it. */
async function deliver(deps: BackgroundDeps, body: unknown, attempts = 1) {
  const outcome = { acked: false, retried: false, dead: [] as DeadLetter[] };
  const message: ConsumedMessage = {
    id: crypto.randomUUID(),
    attempts,
    body,
    ack: () => void (outcome.acked = true),
    retry: () => void (outcome.retried = true),
  };
  await createQueueConsumer(createBackgroundHandlers(deps))(
    { queue: "wyckoff-edge-background", messages: [message] },
    { send: async (d: DeadLetter) => void outcome.dead.push(d) },
    silent,
  );
  return outcome;
}

async function submit(deps: BackgroundDeps, kind: BackgroundKind, input: unknown, sessionId: string | null = null) {
  const r = await createBackgroundPort(deps).submit({ kind, input, ownerId: "local", sessionId });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.task.id;
}

describe("chat → screening on the offline market → notification turn (real queues)", () => {
  it("returns a task id at once, keeps talking, and reports the result in a turn of its own", async () => {
    const id = await newSession();
    const key = `bg-${id}`;
    await script(key, [
      { toolCalls: [{ name: "screen_stocks", arguments: { board: "all", market: "cn" } }] },
      { text: "The screening runs in the background; ask me anything meanwhile." },
      { text: "Screening finished: here are the candidates." },
    ]);
    const { frames } = await sendAndRead(id, `screen the whole market ${key}`);
    const chunks = chunksOf(frames);
    const output = chunks.find((c) => c.type === "tool-output-available") as { output: { task_id: string } };
    const taskId = output.output.task_id;
    expect(taskId).toMatch(/^task_/);
    expect(chunks.at(-1)?.type).toBe("finish");
    // The turn is over while the work goes on.
    expect(["queued", "running"]).toContain((await getTask(taskId)).status);

    const done = await finished(taskId);
    expect(done.status).toBe("succeeded");
    const result = done.result as ScreeningResult;
    expect(result.universe).toBe("SIM");
    expect(result.simulated).toBe(true);
    expect(result.summary.total_scanned).toBe(300);
    expect(result.summary.layer1_passed).toBeLessThanOrEqual(300);
    expect(result.summary.layer5_passed).toBeLessThanOrEqual(result.summary.layer4_passed);
    expect(Object.keys(result.rejections)).toEqual(["l1", "l2", "l3", "l4", "l5"]);

    const session = await eventually(async () => {
      const s = await readSession(id);
      return s.messages.length >= 4 && s.messages.at(-1)?.metadata?.status === "done" ? s : undefined;
    }, 15_000);
    const notice = session.messages[2];
    expect(notice).toMatchObject({ role: "user", metadata: { kind: "notification", taskId } });
    expect(JSON.stringify(notice?.parts)).toContain("300 scanned");
    const answer = session.messages[3]?.parts.map((p) => p.text ?? "").join("");
    expect(answer).toBe("Screening finished: here are the candidates.");

    const list = (await (await call(`/api/tasks?session=${id}`)).json()) as { tasks: TaskView[] };
    expect(list.tasks.map((t) => t.id)).toEqual([taskId]);
    expect(list.tasks[0]?.result).toBeUndefined();
  }, 40_000);
});

describe("signed webhooks", () => {
  it("starts the same screening, reports into the named session, and a repeated webhook-id queues nothing", async () => {
    const session = await newSession();
    const req = signed({ board: "all", market: "cn", session });
    const res = await webhook(req);
    expect(res.status).toBe(202);
    const { taskId } = (await res.json()) as { taskId: string };
    const before = await taskCount();
    const again = await webhook(req);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ taskId, replayed: true });
    expect(await taskCount()).toBe(before);
    const done = await finished(taskId);
    expect(done.status).toBe("succeeded");
    expect((done.result as ScreeningResult).summary.total_scanned).toBe(300);
    const s = await eventually(async () => {
      const x = await readSession(session);
      return x.messages.some((m) => m.metadata?.taskId === taskId) ? x : undefined;
    }, 15_000);
    expect(s.messages[0]?.metadata).toMatchObject({ kind: "notification", taskId });
  }, 40_000);

  it("refuses bad signatures, stale or future timestamps, missing headers and an unset secret; nothing queued", async () => {
    const before = await taskCount();
    const body = { board: "main" };
    const now = Date.now();
    const cases: [string, Response][] = [
      ["bad signature", await webhook(signed(body, { secret: `whsec_${btoa("another-secret-entirely-000000")}` }))],
      ["stale", await webhook(signed(body, { at: new Date(now - 6 * 60_000) }))],
      ["future", await webhook(signed(body, { at: new Date(now + 6 * 60_000) }))],
      ["no id", await webhook(signed(body, { drop: "webhook-id" }))],
      ["no signature", await webhook(signed(body, { drop: "webhook-signature" }))],
      ["no timestamp", await webhook(signed(body, { drop: "webhook-timestamp" }))],
      ["secret unset", await webhook(signed(body), "")],
    ];
    const tampered = signed(body);
    cases.push(["tampered body", await webhook({ ...tampered, body: JSON.stringify({ board: "star" }) })]);
    for (const [name, res] of cases) {
      expect([name, res.status]).toEqual([name, 401]);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    const badBody = await webhook(signed({ board: "nasdaq" }));
    expect(badBody.status).toBe(400);
    // the check in both UI languages, the English as the message (the one issue formatter)
    const badError = (
      (await badBody.json()) as { error: { message: string; details: { messages: Record<string, string> } } }
    ).error;
    expect(badError.message).toMatch(/^board: /);
    expect(badError.details.messages.en).toBe(badError.message);
    expect(badError.details.messages.zh).toMatch(/^board: .*[\u4e00-\u9fff]/);
    const unknownSession = await webhook(signed({ session: "s_nope" }));
    expect(unknownSession.status).toBe(404);
    // Correctly signed, but a webhook-id far past any sender's: refused before it becomes a stored key.
    const longId = await webhook(signed(body, { id: `msg_${"x".repeat(1100)}` }));
    expect(longId.status).toBe(400);
    const longError = (
      (await longId.json()) as { error: { code: string; details: { messages: Record<string, string> } } }
    ).error;
    expect(longError.code).toBe("invalid_input");
    expect(longError.details.messages.zh).toBe("webhook 被拒绝：webhook-id 超过 256 个字符");
    expect(await taskCount()).toBe(before);
  });
});

describe("tasks API", () => {
  it("answers 404 for unknown or malformed ids, 400 without a session, 409 when cancelling a finished task", async () => {
    expect((await call("/api/tasks/task_00000000000000000000000000")).status).toBe(404);
    expect((await call("/api/tasks/nonsense")).status).toBe(404);
    expect((await postJson("/api/tasks/task_00000000000000000000000000/cancel", {})).status).toBe(404);
    expect((await call("/api/tasks")).status).toBe(400);
    const { deps } = capturing();
    const id = await submit(deps, "generate_ai_report", { stock_codes: ["SIM.0001"] });
    await deliver({ ...deps, config: { ...deps.config, model: undefined } }, { kind: "task.run", taskId: id });
    expect((await getTask(id)).status).toBe("succeeded");
    const cancel = await postJson(`/api/tasks/${id}/cancel`, {});
    expect(cancel.status).toBe(409);
  });
});

describe("fan-out faults", () => {
  it("retries a batch that throws without double counting; redeliveries change nothing", async () => {
    const { deps, sent } = capturing();
    const id = await submit(deps, "screen_stocks", { board: "all", market: "cn" });
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    const batches = sent.filter((m) => (m as { kind: string }).kind === "screen.batch");
    expect(batches).toHaveLength(3);
    let calls = 0;
    const flaky = {
      ...deps,
      cache: Object.assign(Object.create(Object.getPrototypeOf(deps.cache)), deps.cache, {
        getColumnsMany: async (ids: readonly string[], lastBars?: number) => {
          if (calls++ === 0) throw new Error("D1 hiccup mid-batch");
          return deps.cache.getColumnsMany(ids, lastBars);
        },
        getSeries: (sid: string) => deps.cache.getSeries(sid),
      }),
    } as BackgroundDeps;
    const first = await deliver(flaky, batches[0], 1);
    expect(first).toMatchObject({ acked: false, retried: true });
    const coordinator = coordinatorOf(deps, id);
    expect((await coordinator.state()).received).toBe(0);
    expect((await deliver(flaky, batches[0], 2)).acked).toBe(true);
    expect((await deliver(deps, batches[0], 3)).acked).toBe(true);
    expect((await coordinator.state()).received).toBe(1);
    await deliver(deps, batches[1]);
    await deliver(deps, batches[2]);
    await deliver(deps, batches[2], 2);
    const done = await getTask(id);
    expect(done.status).toBe("succeeded");
    expect((done.result as ScreeningResult).summary.total_scanned).toBe(300);
    expect(await coordinator.state()).toMatchObject({ received: 3, total: 3, finished: true });
    // A redelivered start of a finished task does nothing.
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    expect(sent.filter((m) => (m as { kind: string }).kind === "screen.batch")).toHaveLength(3);
  });

  it("cancel during fan-out: no further batches count and the task stays cancelled", async () => {
    const { deps, sent } = capturing();
    const id = await submit(deps, "screen_stocks", { board: "all", market: "cn" });
    await deliver(deps, { kind: "task.run", taskId: id });
    const batches = sent.filter((m) => (m as { kind: string }).kind === "screen.batch");
    await deliver(deps, batches[0]);
    const res = await postJson(`/api/tasks/${id}/cancel`, {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as TaskView).status).toBe("cancelled");
    await deliver(deps, batches[1]);
    await deliver(deps, batches[2]);
    expect(await coordinatorOf(deps, id).state()).toMatchObject({ received: 1, cancelled: true, finished: false });
    const t = await getTask(id);
    expect(t.status).toBe("cancelled");
    expect(t.result).toBeUndefined();
  });

  it("a poison message goes to the dead-letter queue and its task fails with the reason (real queues)", async () => {
    const db = createDb(testEnv.DB);
    const id = formatId(crypto.getRandomValues(new Uint8Array(16)), "task_");
    await db.insert(tasksTable).values({
      id,
      kind: "screen_stocks",
      ownerId: "local",
      sessionId: null,
      status: "queued",
      input: { board: "nasdaq" },
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    await testEnv.BACKGROUND_QUEUE.send({ kind: "task.run", taskId: id });
    const t = await finished(id, 20_000);
    expect(t.status).toBe("failed");
    expect(t.error).toMatch(/permanent failure: invalid screen_stocks input/);
  }, 30_000);
});

describe("other background jobs", () => {
  it("backtests the offline market with honest caveats", async () => {
    const { deps, sent } = capturing();
    const id = await submit(deps, "run_backtest", { hold_days: 5, top_n: 2, exit_mode: "sltp" });
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    for (const m of sent.filter((x) => (x as { kind: string }).kind === "backtest.batch"))
      expect((await deliver(deps, m)).acked).toBe(true);
    const t = await getTask(id);
    expect(t.status).toBe("succeeded");
    const r = t.result as BacktestResult;
    expect(r.universe).toBe("SIM");
    expect(r.trades).toBe(r.trade_list.length);
    expect(r.nav.length).toBeGreaterThan(10);
    expect(r.caveats.join(" ")).toMatch(/Survivorship/);
    expect(r.caveats.join(" ")).toMatch(/Simulated market/);
    for (const trade of r.trade_list) expect(trade.entryDate > trade.signalDate).toBe(true);
  }, 30_000);

  it("backtests only the symbol it is given (not the whole market)", async () => {
    const { deps, sent } = capturing();
    const id = await submit(deps, "run_backtest", { hold_days: 5, top_n: 2, symbol: "SIM.0002" });
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    for (const m of sent.filter((x) => (x as { kind: string }).kind === "backtest.batch"))
      expect((await deliver(deps, m)).acked).toBe(true);
    const t = await getTask(id);
    expect(t.status).toBe("succeeded");
    const r = t.result as BacktestResult;
    expect(r.symbols).toBe(1);
    for (const trade of r.trade_list) expect(trade.code).toBe("SIM.0002");
  }, 30_000);

  it("fans a backtest out in symbol batches; the coordinator's day replay equals the single-call replay", async () => {
    const { deps, sent } = capturing({ batchSize: 70 });
    const input = { hold_days: 10, top_n: 3, exit_mode: "close_only" };
    const id = await submit(deps, "run_backtest", input);
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    const batches = sent.filter((m) => (m as { kind: string }).kind === "backtest.batch");
    expect(batches).toHaveLength(5);
    const coordinator = coordinatorOf(deps, id);
    for (const [i, m] of batches.entries()) {
      expect((await deliver(deps, m)).acked).toBe(true);
      if (i === 0) expect((await deliver(deps, m, 2)).acked).toBe(true); // a redelivery counts once
      if (i < batches.length - 1) expect((await getTask(id)).status).toBe("running");
    }
    expect(await coordinator.state()).toMatchObject({ received: 5, total: 5, finished: true });
    const t = await getTask(id);
    expect(t.status).toBe("succeeded");
    const fanned = t.result as BacktestResult;
    // The same backtest in one call over the same cached bars (the pre-fan-out path).
    const symbols = boardFilter(await cache.listSymbols("SIM", "stock"), "all");
    const series = await cache.getSeriesMany(symbols.map((s) => s.id));
    const byId = new Map(series.map((s) => [s.symbolId, s.bars]));
    const single = await replayBacktest(
      {
        market: "CN",
        label: "SIM",
        simulated: true,
        symbols: symbols.map((s) => ({
          meta: { id: s.id, code: s.id, name: s.name, industry: s.industry, board: s.board },
          bars: byId.get(s.id) ?? [],
        })),
        index: (await cache.getSeries("SIM.IDX1"))?.bars ?? [],
        smallCap: (await cache.getSeries("SIM.IDX2"))?.bars ?? [],
      },
      BacktestInput.parse(input),
      resolveParams(),
    );
    expect(single?.trades).toBeGreaterThan(10);
    // The benchmark NAV is added around the engine's replay; the rest is the engine's own result.
    const { benchmark, benchmark_nav, ...core } = fanned;
    expect(benchmark).toBe("SIM.IDX1");
    expect(benchmark_nav?.map((p) => p.date)).toEqual(fanned.nav.map((p) => p.date));
    expect(benchmark_nav?.[0]?.nav).toBe(1);
    expect(core).toEqual(single);
    // A redelivered start of a finished backtest sends nothing more.
    expect((await deliver(deps, { kind: "task.run", taskId: id })).acked).toBe(true);
    expect(sent.filter((m) => (m as { kind: string }).kind === "backtest.batch")).toHaveLength(5);
    // The per-day rows are freed once the task is complete; a late redelivery is still a duplicate.
    expect(await deliver(deps, batches[4] as never)).toMatchObject({ acked: true });
    const { runInDurableObject } = await import("cloudflare:test");
    const leftover = await runInDurableObject(coordinator as never, (_instance: unknown, state: DurableObjectState) => {
      const tables = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'bt_%'")
        .toArray();
      const bytes = state.storage.sql
        .exec<{ n: number }>("SELECT COALESCE(SUM(LENGTH(data)), 0) AS n FROM partials")
        .one().n;
      return { tables: tables.length, bytes };
    });
    expect(leftover).toEqual({ tables: 0, bytes: 10 });
  }, 60_000);

  it("writes a rule-based report with the offline model, labelled as such", async () => {
    const { deps } = capturing({});
    const offline = { ...deps, config: { ...deps.config, model: undefined } };
    const id = await submit(offline, "generate_ai_report", { stock_codes: ["SIM.0001", "SIM.0002", "NOPE.1"] });
    await deliver(offline, { kind: "task.run", taskId: id });
    const r = (await getTask(id)).result as ReportResult;
    expect(r).toMatchObject({ ok: true, rule_based: true, model: "rule-based", stock_count: 2, simulated: true });
    expect(r.report_text).toMatch(/Rule-based report/);
    expect(r.missing).toHaveLength(1);
    expect(r.camps.map((c) => c.camp).every((c) => ["起跳板", "储备营地", "逻辑破产"].includes(c))).toBe(true);
  });

  it("decides orders: holdings get a decision, stops only tighten", async () => {
    const { deps } = capturing();
    const offline = { ...deps, config: { ...deps.config, model: undefined } };
    const id = await submit(offline, "generate_strategy_decision", {
      holdings: [{ code: "SIM.0003", shares: 1000, cost_price: 1, stop_loss: 0.5 }],
      free_cash: 100_000,
    });
    await deliver(offline, { kind: "task.run", taskId: id });
    const r = (await getTask(id)).result as StrategyResult;
    expect(r.ok).toBe(true);
    const held = r.decisions.find((d) => d.code === "SIM.0003");
    expect(held).toBeDefined();
    expect(held?.stop ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(r.screen_summary.total_scanned).toBe(300);
  }, 30_000);

  it("query_history reads the tracked signals with status counts", async () => {
    const { deps } = capturing();
    const port = createBackgroundPort(deps);
    const signals = await port.history("local", { source: "signal", limit: 20 });
    expect(signals.source).toBe("signal");
    const total = Object.values(signals.status_counts ?? {}).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(signals.rows.length);
    const recs = await port.history("local", { source: "recommendation", limit: 10 });
    for (const r of recs.rows) expect("current_price" in r).toBe(true);
    expect((await port.history("local", { source: "tail_buy", limit: 5 })).rows).toEqual([]);
  });

  it("the daily cron starts one screening per day and is off by default", async () => {
    const { deps } = capturing();
    const port = createBackgroundPort(deps);
    const now = Date.parse("2026-07-01T07:40:00Z");
    expect(await startDailyScreening({ setting: "off", port, now, log: silent })).toBeNull();
    const a = await startDailyScreening({ setting: "cn", port, now, log: silent });
    const b = await startDailyScreening({ setting: "cn", port, now: now + 60_000, log: silent });
    expect(a).toMatch(/^task_/);
    expect(b).toBe(a);
  });
});
