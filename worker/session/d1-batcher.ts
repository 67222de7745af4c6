/**
 * One D1 round trip for the batches a turn's set-up starts together. D1 answers a worker's requests
 * one at a time, so the set-up reads' batch (skills, hints, model settings) and the memory recall's
 * batch, sent side by side, cost two round trips; through `coalescingD1` the `batch` calls made in
 * the same turn of the event loop go out as one `batch` and each caller gets its own slice of the
 * results. A failing merged batch is retried per caller, so one caller's failure never becomes the
 * other's (exactly what each would have seen alone). Only `batch` is coalesced; every other method is
 * the database's own. Use it for read batches: a merged batch is one transaction.
 */

interface Waiting {
  statements: D1PreparedStatement[];
  resolve: (results: D1Result[]) => void;
  reject: (error: unknown) => void;
}

function sendAlone(d1: D1Database, w: Waiting): void {
  d1.batch(w.statements).then(w.resolve, w.reject);
}

async function sendMerged(d1: D1Database, group: Waiting[]): Promise<void> {
  if (group.length === 1) return sendAlone(d1, group[0] as Waiting);
  let results: D1Result[];
  try {
    results = await d1.batch(group.flatMap((w) => w.statements));
  } catch {
    for (const w of group) sendAlone(d1, w);
    return;
  }
  let at = 0;
  for (const w of group) {
    w.resolve(results.slice(at, at + w.statements.length));
    at += w.statements.length;
  }
}

/** `d1` with the `batch` calls of one event-loop turn merged into one round trip. */
export function coalescingD1(d1: D1Database): D1Database {
  let pending: Waiting[] | undefined;
  const batch = (statements: D1PreparedStatement[]): Promise<D1Result[]> =>
    new Promise((resolve, reject) => {
      if (statements.length === 0) return resolve([]);
      if (!pending) {
        const group: Waiting[] = [];
        pending = group;
        setTimeout(() => {
          pending = undefined;
          void sendMerged(d1, group);
        }, 0);
      }
      pending.push({ statements, resolve, reject });
    });
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "batch") return batch;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
