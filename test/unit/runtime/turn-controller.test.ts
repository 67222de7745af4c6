/**
 * The turn lifecycle in plain Node: an in-memory session log, a host that records what it streams,
 * the real loop against the scripted OpenAI-compatible model server.
 */
import type { ModelMessage, UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredUIMessage } from "../../../worker/contracts/api";
import { createLogger } from "../../../worker/lib/log";
import { createModels } from "../../../worker/runtime/model";
import { resolveProfile } from "../../../worker/runtime/profiles/resolve";
import type {
  ApprovalRecord,
  NewTurn,
  SessionLog,
  SessionRecord,
  TurnPatch,
  TurnRecord,
} from "../../../worker/runtime/session-log";
import type { ApprovalDecision } from "../../../worker/runtime/tool-executor";
import { TurnController } from "../../../worker/runtime/turn-controller";
import type { TurnHost } from "../../../worker/runtime/turn-host";
import { checkDecision, DEFAULT_TITLE, notificationPrompt, titleFrom } from "../../../worker/runtime/turn-inputs";
import { TOOLS } from "../../../worker/tools/registry";
import { fakeToolDeps } from "../../support/runtime-harness";
import { startScriptedModel, type ScriptedModel } from "../../support/scripted-model/server";

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(async () => {
  await server.close();
});

/** The session log in memory. */
function memoryLog(meta: SessionRecord) {
  const turns: (TurnRecord & { error?: string | null; endedAt?: number })[] = [];
  const events: { idx: number; turnId: string; chunk: string }[] = [];
  const model: { turnId: string; message: ModelMessage }[] = [];
  const messages: StoredUIMessage[] = [];
  const approvals: (ApprovalRecord & { decision?: ApprovalDecision })[] = [];
  const notes: { id: string; text: string; delivered: boolean }[] = [];
  const always = new Set<string>();
  const log: SessionLog = {
    meta: () => meta,
    setTitle: (t) => void (meta.title = t),
    setCompaction: () => {},
    addUsage: () => {},
    appendMessage: (m) => void messages.push(m),
    lastTurn: () => turns.at(-1),
    openTurn: () => turns.find((t) => t.status === "running" || t.status === "awaiting_approval"),
    insertTurn: (t: NewTurn) => void turns.push({ ...t, modelId: null, rounds: 0 }),
    updateTurn: (id: string, patch: TurnPatch) => {
      const t = turns.find((x) => x.id === id);
      if (t) Object.assign(t, patch);
    },
    nextEventIndex: () => events.length,
    appendEvents: (batch) => void events.push(...batch),
    eventsOf: (turnId, from = 0) => events.filter((e) => e.turnId === turnId && e.idx >= from),
    appendModelMessages: (turnId, ms) => void model.push(...ms.map((message) => ({ turnId, message }))),
    modelMessages: () => model,
    insertApproval: (row) => void approvals.push({ ...row, status: "pending" }),
    approval: (id) => approvals.find((a) => a.id === id),
    decidedApproval: (toolCallId) => {
      const a = approvals.find((x) => x.toolCallId === toolCallId && x.decision);
      return a?.decision ? { approvalId: a.id, decision: a.decision } : undefined;
    },
    pendingApprovals: (turnId) => approvals.filter((a) => a.turnId === turnId && a.status === "pending"),
    decide: (id, decision) => {
      const a = approvals.find((x) => x.id === id);
      if (a) Object.assign(a, { status: decision.decision, decision });
    },
    denyPending: (turnId) => {
      for (const a of approvals)
        if (a.turnId === turnId && a.status === "pending")
          Object.assign(a, { status: "deny", decision: { decision: "deny" } });
    },
    allowAlways: (name) => void always.add(name),
    alwaysAllowedTools: () => always,
    insertNotification: (id, text) => {
      if (notes.some((n) => n.id === id)) return false;
      notes.push({ id, text, delivered: false });
      return true;
    },
    nextNotification: () => notes.find((n) => !n.delivered),
    markDelivered: (id) => {
      const n = notes.find((x) => x.id === id);
      if (n) n.delivered = true;
    },
  };
  return { log, turns, events, messages, approvals, model };
}

/** A host over the scripted model; `ended()` resolves when the next turn closes its streams. */
function testHost() {
  let seq = 0;
  let onClose: (() => void) | undefined;
  let onPause: (() => void) | undefined;
  const silent = createLogger(() => {});
  const host: TurnHost = {
    log: silent,
    now: Date.now,
    newId: (prefix) => `${prefix}${++seq}`,
    broadcast: () => {},
    subscribe: () => new ReadableStream<Uint8Array>(),
    pauseStreams: () => onPause?.(),
    closeStreams: () => onClose?.(),
    keepAlive: async () => () => {},
    waitUntil: () => {},
    traces: { earlier: async () => "", sink: () => () => {}, flush: async () => {} },
    seal: async () => {},
    setUp: async (o) => ({
      profile: resolveProfile(null),
      req: {
        sessionId: "s_test",
        turnId: o.turn.id,
        userId: o.userId,
        messageId: o.turn.assistantMessageId,
        system: "You are a test.",
        history: o.transcript.history,
        lang: o.turn.lang,
        started: true,
        signal: o.signal,
        ...(o.resume ? { resume: o.resume } : {}),
      },
      deps: {
        ...o.hooks,
        models: createModels({ baseURL: server.url, apiKey: undefined, model: "scripted" }, undefined),
        tools: TOOLS,
        toolDeps: fakeToolDeps(),
        memoryFlush: { flushBeforeCompaction: async () => {} },
        spills: undefined,
        log: silent,
        now: Date.now,
        newId: () => `a_${++seq}`,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      },
    }),
    recordUsage: async () => {},
    learn: async () => {},
  };
  return {
    host,
    ended: () => new Promise<void>((r) => (onClose = r)),
    paused: () => new Promise<void>((r) => (onPause = r)),
  };
}

const textOf = (chunks: string[]) =>
  chunks
    .map((c) => JSON.parse(c) as UIMessageChunk)
    .filter((c) => c.type === "text-delta")
    .map((c) => (c as { delta: string }).delta)
    .join("");

describe("turn controller helpers", () => {
  it("derives a title from the first message on one line, cut to 40 characters", () => {
    expect(titleFrom("  What is\n the phase\tof 600519?  ")).toBe("What is the phase of 600519?");
    expect(titleFrom("x".repeat(60))).toHaveLength(40);
  });

  it("marks a notification as system text with the task id", () => {
    const p = notificationPrompt("task_1", "screening done");
    expect(p.startsWith("[SYSTEM NOTIFICATION - NOT USER INPUT]")).toBe(true);
    expect(p).toContain('<task-notification id="task_1">\nscreening done\n</task-notification>');
  });

  it("checks an edited approval input against the tool's schema", () => {
    expect(checkDecision("write_file", { decision: "edit", input: { path: "" } })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
    expect(checkDecision("write_file", { decision: "edit", input: { path: "a.md", content: "x" } })).toMatchObject({
      decision: "edit",
      input: { path: "a.md", content: "x" },
    });
    expect(checkDecision("no_such_tool", { decision: "edit", input: {} })).toMatchObject({
      message: expect.stringContaining("unknown tool"),
    });
    expect(checkDecision("write_file", { decision: "deny", reason: "no" })).toEqual({ decision: "deny", reason: "no" });
  });
});

describe("TurnController", () => {
  it("opens a turn for the message, names the session, refuses a second turn, stores the answer", async () => {
    const meta = {
      id: "s_1",
      ownerId: "u_1",
      title: DEFAULT_TITLE,
      profile: null,
      compactionSummary: null,
      compactedThrough: null,
    };
    const mem = memoryLog(meta);
    const t = testHost();
    const ctl = new TurnController(mem.log, t.host);
    await ctl.recover();
    server.push([{ text: "Phase C, spring." }], "k-ctl-1");
    const ended = t.ended();
    const first = ctl.start({ text: "spring k-ctl-1" });
    expect(first).toMatchObject({ ok: true, title: "spring k-ctl-1" });
    expect(meta.title).toBe("spring k-ctl-1");
    expect(ctl.start({ text: "again" })).toMatchObject({ ok: false, code: "conflict" });
    await ended;
    expect(mem.turns).toHaveLength(1);
    expect(mem.turns[0]?.status).toBe("done");
    expect(textOf(mem.events.map((e) => e.chunk))).toBe("Phase C, spring.");
    expect(mem.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(mem.events.map((e) => e.idx)).toEqual(mem.events.map((_, i) => i));
    expect(ctl.liveTurnId()).toBeUndefined();
  });

  it("queues a notification while a turn runs and reports it in a turn of its own afterwards, once", async () => {
    const meta = {
      id: "s_2",
      ownerId: "u_1",
      title: "named",
      profile: null,
      compactionSummary: null,
      compactedThrough: null,
    };
    const mem = memoryLog(meta);
    const t = testHost();
    const ctl = new TurnController(mem.log, t.host);
    await ctl.recover();
    // Keys match anywhere in the request; the notification turn's history also holds "k-ctl-2".
    server.push([{ text: "The screening finished." }], "task_9");
    server.push([{ text: "first answer", chunkDelayMs: 20 }], "k-ctl-2");
    const firstEnded = t.ended();
    expect(ctl.start({ text: "hello k-ctl-2" })).toMatchObject({ ok: true });
    expect(meta.title).toBe("named");
    expect(ctl.notify({ id: "task_9", text: "screening task_9 done" })).toEqual({ queued: true });
    expect(ctl.notify({ id: "task_9", text: "screening task_9 done" })).toEqual({ queued: false });
    expect(mem.turns).toHaveLength(1);
    const secondEnded = (async () => {
      await firstEnded;
      await t.ended();
    })();
    await secondEnded;
    expect(mem.turns.map((x) => x.status)).toEqual(["done", "done"]);
    const [shown] = mem.messages.filter((m) => m.metadata?.kind === "notification");
    expect(shown).toMatchObject({
      parts: [{ type: "text", text: "screening task_9 done" }],
      metadata: { taskId: "task_9" },
    });
    const prompt = mem.model.find((m) => m.turnId === mem.turns[1]?.id)?.message;
    expect(prompt).toEqual({ role: "user", content: notificationPrompt("task_9", "screening task_9 done") });
    const second = mem.events
      .filter((e) => e.turnId === mem.turns[1]?.id)
      .map((e) => JSON.parse(e.chunk) as UIMessageChunk);
    expect(second.some((c) => c.type === "data-notification")).toBe(true);
  });

  it("reports a notification in the conversation's language, not in the language of the job's text", async () => {
    const meta = {
      id: "s_2zh",
      ownerId: "u_1",
      title: "named",
      profile: null,
      compactionSummary: null,
      compactedThrough: null,
    };
    const mem = memoryLog(meta);
    const t = testHost();
    const ctl = new TurnController(mem.log, t.host);
    await ctl.recover();
    server.push([{ text: "筛选完成。" }], "task_zh7");
    server.push([{ text: "好的", chunkDelayMs: 20 }], "k-ctl-zh");
    const firstEnded = t.ended();
    expect(ctl.start({ text: "帮我筛选 k-ctl-zh" })).toMatchObject({ ok: true });
    expect(ctl.notify({ id: "task_zh7", text: "screening task_zh7 done" })).toEqual({ queued: true });
    await firstEnded;
    await t.ended();
    expect(mem.turns.map((x) => x.lang)).toEqual(["zh", "zh"]);
  });

  it("waits for a person: a bad edit is refused, a denial lets the turn finish, a second answer conflicts", async () => {
    const meta = {
      id: "s_3",
      ownerId: "u_1",
      title: "named",
      profile: null,
      compactionSummary: null,
      compactedThrough: null,
    };
    const mem = memoryLog(meta);
    const t = testHost();
    const ctl = new TurnController(mem.log, t.host);
    await ctl.recover();
    server.push(
      [
        { toolCalls: [{ name: "write_file", arguments: { path: "notes/a.md", content: "hi" } }] },
        { text: "Not saved." },
      ],
      "k-ctl-3",
    );
    const paused = t.paused();
    expect(ctl.start({ text: "save k-ctl-3" })).toMatchObject({ ok: true });
    await paused;
    expect(mem.turns[0]?.status).toBe("awaiting_approval");
    const approval = mem.approvals[0];
    expect(approval).toMatchObject({ toolName: "write_file", status: "pending" });
    const id = approval?.id ?? "";
    expect(ctl.decide("nope", { decision: "allow" })).toMatchObject({ ok: false, code: "not_found" });
    expect(ctl.decide(id, { decision: "edit", input: { path: "" } })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
    expect(mem.approvals[0]?.status).toBe("pending");
    const ended = t.ended();
    expect(ctl.decide(id, { decision: "deny", reason: "not now" })).toEqual({ ok: true });
    await ended;
    expect(mem.turns[0]?.status).toBe("done");
    expect(ctl.decide(id, { decision: "allow" })).toMatchObject({ ok: false, code: "conflict" });
  });

  it("after a restart closes an interrupted turn with an error in its language; cancel with nothing open is a no-op", async () => {
    const meta = {
      id: "s_4",
      ownerId: "u_1",
      title: "named",
      profile: null,
      compactionSummary: null,
      compactedThrough: null,
    };
    const mem = memoryLog(meta);
    mem.log.insertTurn({
      id: "t_old",
      status: "running",
      userMessageId: "m_u",
      assistantMessageId: "m_a",
      lang: "zh",
      startedAt: 1,
    });
    const t = testHost();
    const ctl = new TurnController(mem.log, t.host);
    await ctl.recover();
    expect(mem.turns[0]).toMatchObject({ status: "error", error: "interrupted" });
    const chunks = mem.events.map((e) => JSON.parse(e.chunk) as UIMessageChunk);
    expect(chunks[0]).toEqual({ type: "error", errorText: "本轮在服务器重启时中断，请重新发送。" });
    expect(await ctl.cancel()).toEqual({ cancelled: false });
  });

  it("stores and sends a burst of model chunks in a few batches: the first token at once, nothing sent before it is stored", async () => {
    const meta = {
      id: "s_5",
      ownerId: "u_1",
      title: "named",
      profile: null,
      compactionSummary: null,
      compactedThrough: null,
    };
    const mem = memoryLog(meta);
    const writes: number[][] = [];
    const store = mem.log.appendEvents;
    mem.log.appendEvents = (batch) => {
      writes.push(batch.map((e) => e.idx));
      store(batch);
    };
    const t = testHost();
    const sent: number[][] = [];
    t.host.broadcast = (batch) => {
      // Every event sent is already in the log (the output gate then holds the frame for its commit).
      for (const e of batch) expect(mem.events.some((x) => x.idx === e.idx)).toBe(true);
      sent.push(batch.map((e) => e.idx));
    };
    const ctl = new TurnController(mem.log, t.host);
    await ctl.recover();
    const text = "Phase C: the spring held on low volume; the test came back quietly.";
    server.push([{ text, chunkSize: 2 }], "k-ctl-5");
    const ended = t.ended();
    expect(ctl.start({ text: "burst k-ctl-5" })).toMatchObject({ ok: true });
    await ended;
    const chunks = mem.events.map((e) => JSON.parse(e.chunk) as UIMessageChunk);
    expect(textOf(mem.events.map((e) => e.chunk))).toBe(text);
    expect(mem.events.map((e) => e.idx)).toEqual(mem.events.map((_, i) => i));
    const deltas = chunks.filter((c) => c.type === "text-delta").length;
    expect(deltas).toBe(Math.ceil(text.length / 2));
    // One write per batch, each sent as written; far fewer batches than events.
    expect(sent).toEqual(writes);
    expect(writes.length).toBeLessThanOrEqual(8);
    expect(writes.flat()).toEqual(mem.events.map((e) => e.idx));
    // The first delta ends its batch: it went out without waiting for the deltas after it.
    const first = chunks.findIndex((c) => c.type === "text-delta");
    expect(writes.find((w) => w.includes(first))?.at(-1)).toBe(first);
  });
});
