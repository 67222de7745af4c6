import { describe, expect, it } from "vitest";
import {
  createQueueConsumer,
  PermanentError,
  RetryableError,
  retryDelaySeconds,
  type ConsumedBatch,
  type DeadLetter,
  type DeadLetterSink,
} from "../../../worker/background/queue-consumer";
import { createLogger } from "../../../worker/lib/log";

interface Outcome {
  acked: boolean;
  retried: { delaySeconds?: number } | null;
}

function fakeBatch(bodies: unknown[], attempts = 1) {
  const outcomes: Outcome[] = bodies.map(() => ({ acked: false, retried: null }));
  const messages = bodies.map((body, i) => ({
    id: `m${i}`,
    timestamp: new Date(0),
    attempts,
    body,
    ack: () => void ((outcomes[i] as Outcome).acked = true),
    retry: (opts?: { delaySeconds?: number }) => void ((outcomes[i] as Outcome).retried = opts ?? {}),
  }));
  const batch: ConsumedBatch = { queue: "wyckoff-edge-background", messages };
  return { batch, outcomes };
}

function fakeDlq() {
  const sent: DeadLetter[] = [];
  const queue: DeadLetterSink = { send: async (m: DeadLetter) => void sent.push(m) };
  return { queue, sent };
}

const silent = createLogger(() => {});

describe("queue consumer", () => {
  it("acks handled messages, retries retryable failures with backoff and dead-letters the rest", async () => {
    const seen: string[] = [];
    const consume = createQueueConsumer({
      ok: async (body) => void seen.push(String(body.n)),
      flaky: async () => {
        throw new RetryableError("upstream 503");
      },
      bug: async () => {
        throw new TypeError("undefined is not a function");
      },
      bad: async () => {
        throw new PermanentError("task t1 does not exist");
      },
    });
    const { batch, outcomes } = fakeBatch(
      [{ kind: "ok", n: 1 }, { kind: "flaky" }, { kind: "bug" }, { kind: "bad" }, { kind: "nope" }, 42],
      3,
    );
    const dlq = fakeDlq();
    await consume(batch, dlq.queue, silent);

    expect(seen).toEqual(["1"]);
    expect(outcomes.map((o) => o.acked)).toEqual([true, false, false, true, true, true]);
    expect(outcomes[1]?.retried).toEqual({ delaySeconds: 8 });
    expect(outcomes[2]?.retried).toEqual({ delaySeconds: 8 });
    expect(dlq.sent.map((d) => d.reason)).toEqual([
      "permanent failure: task t1 does not exist",
      "unknown message kind: nope",
      "malformed message: expected an object with a string `kind`",
    ]);
    expect(dlq.sent[0]).toMatchObject({ queue: "wyckoff-edge-background", body: { kind: "bad" }, attempts: 3 });
  });

  it("backs off exponentially up to five minutes", () => {
    expect([1, 2, 3, 8, 9, 20].map(retryDelaySeconds)).toEqual([2, 4, 8, 256, 300, 300]);
  });
});
