/**
 * HTTP plumbing of the scripted model (test support): JSON answers, bounded body reads, and SSE
 * writes paced by pauses that end early when the client goes away (and that `close()` can cancel).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Answers `value` as JSON with its length. */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** The request body as text; rejects (and destroys the request) past 32 MiB. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on("data", (data: Buffer) => {
      total += data.length;
      if (total > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(data);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The request headers, each as one string. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** Timers of pauses in flight, so the server can cancel them on close. */
export type PendingTimers = Set<ReturnType<typeof setTimeout>>;

/** Waits `ms`, resolving early if the response has gone away. */
export function pause(ms: number, res: ServerResponse, pendingTimers: PendingTimers): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || res.destroyed) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      pendingTimers.delete(timer);
      res.off("close", onClose);
      resolve();
    }, ms);
    const onClose = (): void => {
      clearTimeout(timer);
      pendingTimers.delete(timer);
      resolve();
    };
    pendingTimers.add(timer);
    res.once("close", onClose);
  });
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) {
      resolve();
      return;
    }
    res.write(text, () => resolve());
  });
}

/** Sends the 200 event-stream head. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
}

/** Writes Anthropic's named SSE events (`event:` + `data:`), pausing `delayMs` before each one after the first. */
export async function streamNamedEvents(
  res: ServerResponse,
  events: { event: string; data: unknown }[],
  delayMs: number,
  pendingTimers: PendingTimers,
): Promise<void> {
  for (let i = 0; i < events.length; i++) {
    if (res.destroyed) return;
    if (i > 0) await pause(delayMs, res, pendingTimers);
    const e = events[i] as { event: string; data: unknown };
    await write(res, `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
  }
}

/** Writes payloads as `data:` SSE events, pausing `delayMs` before each one after the first. */
export async function streamEvents(
  res: ServerResponse,
  payloads: string[],
  delayMs: number,
  pendingTimers: PendingTimers,
): Promise<void> {
  for (let i = 0; i < payloads.length; i++) {
    if (res.destroyed) return;
    if (i > 0) await pause(delayMs, res, pendingTimers);
    await write(res, `data: ${payloads[i]}\n\n`);
  }
}
