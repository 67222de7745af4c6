/**
 * The scripted model's control endpoints (test support): `/__script` appends, lists and resets the
 * queued responses; `/__requests` lists (by key) and forgets the recorded requests.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, sendJson } from "./http-io.ts";
import { parseResponses } from "./script.ts";
import type { ScriptQueues } from "./script-queues.ts";
import type { RecordedRequest } from "./recorded-request.ts";

/** What the control endpoints act on. */
export interface ControlState {
  queues: ScriptQueues;
  /** Clears the queues, keys, recorded requests and the prompt cache. */
  reset(): void;
  requests(key?: string | null): RecordedRequest[];
  forgetRequests(): void;
}

/** Serves `/__script` and `/__requests`; anything else there is a 404. */
export async function serveControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  { queues, reset, requests, forgetRequests }: ControlState,
): Promise<void> {
  const method = req.method ?? "GET";
  if (url.pathname === "/__script") {
    if (method === "DELETE") {
      reset();
      sendJson(res, 200, { ok: true });
      return;
    }
    if (method === "GET") {
      sendJson(res, 200, queues.sizes());
      return;
    }
    if (method === "POST") {
      let input: unknown;
      try {
        input = JSON.parse(await readBody(req));
      } catch {
        sendJson(res, 400, { error: { message: "body must be JSON { key?, responses }" } });
        return;
      }
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        sendJson(res, 400, { error: { message: "body must be JSON { key?, responses }" } });
        return;
      }
      const { key, responses } = input as { key?: unknown; responses?: unknown };
      if (key !== undefined && (typeof key !== "string" || key.length === 0)) {
        sendJson(res, 400, { error: { message: "key must be a non-empty string" } });
        return;
      }
      try {
        queues.enqueue(parseResponses(responses), key);
      } catch (error) {
        sendJson(res, 400, {
          error: { message: error instanceof Error ? error.message : String(error) },
        });
        return;
      }
      const queued = queues.size(key);
      sendJson(res, 200, { ok: true, key: key ?? null, queued });
      return;
    }
  }
  if (url.pathname === "/__requests") {
    if (method === "GET") {
      const key = url.searchParams.get("key");
      sendJson(res, 200, requests(key === null ? undefined : key === "" ? null : key));
      return;
    }
    if (method === "DELETE") {
      forgetRequests();
      sendJson(res, 200, { ok: true });
      return;
    }
  }
  sendJson(res, 404, { error: { message: `no control endpoint ${method} ${url.pathname}` } });
}
