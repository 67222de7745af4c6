/**
 * Background work inside workerd over the offline market: a chat turn starts a screening that fans
 * out through the real queue and reports back as a notification turn; a library-signed webhook starts
 * the same run (bad signature, stale/future timestamp, missing headers, replayed id refused, nothing
 * queued); the tasks API; and the faults: a batch that throws is retried without double counting,
 * cancel during fan-out, a poison message dead-lettered with the task failed. The other jobs
 * (backtests, reports, strategy decisions, query_history, the daily cron): background-jobs.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BackgroundDeps } from "../../worker/background/background-deps";
import { coordinatorOf } from "../../worker/background/screen-jobs";
import type { ScreeningResult } from "../../worker/contracts/screening";
import type { TaskView } from "../../worker/contracts/task";
import { formatId } from "../../worker/lib/ids";
import { createDb } from "../../worker/storage/db";
import { tasks as tasksTable } from "../../worker/storage/schema";
import { call, eventually, newSession, postJson, readSession, script, sendAndRead, chunksOf } from "./turn-helpers";
import { testEnv } from "./test-env";
import {
  capturing,
  deliver,
  finished,
  getTask,
  seedOfflineMarket,
  signed,
  submit,
  taskCount,
  webhook,
} from "./background-helpers";
beforeAll(seedOfflineMarket, 120_000); // a hang cap for loading the bundle on a busy machine, not a timing budget
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
