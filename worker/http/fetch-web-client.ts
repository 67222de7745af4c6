/**
 * FetchWebClient: the `WebClient` port over `fetch` (edge). Every request is checked against the
 * destination policy first (`lib/url-policy.ts`), sent with `redirect: "manual"` so the handler sees
 * each hop, limited in time, and its body read only up to the byte cap.
 *
 * `testOnlyAllowHosts` (exact `host:port` pairs) exists so workerd tests can reach the fake upstream
 * on loopback. It is a constructor argument and nothing else: no setting or request can set it, and
 * the production wiring (`session/tool-deps.ts`) never passes it.
 */
import { err, ok, type Result } from "../lib/result";
import { checkDestination, checkResolvedAddresses, isIpLiteral } from "../lib/url-policy";
import type { HostResolver } from "../ports/host-resolver";
import type { WebClient, WebRequestOptions, WebResponse } from "../ports/web-client";

/** Options of the adapter. */
export interface FetchWebClientOptions {
  fetch: typeof fetch;
  /**
   * When set, names are resolved first and refused unless every address is public (and refused when
   * they cannot be resolved). `local` mode sets it: there workerd's fetch reaches the machine's own
   * network, which a deployed Worker's does not.
   */
  resolver?: HostResolver;
  /** Tests only: `host:port` pairs let through whatever their address class. */
  testOnlyAllowHosts?: readonly string[];
}

async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  if (!body) return { bytes: new Uint8Array(), over: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      over = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, over };
}

/** The adapter. */
export class FetchWebClient implements WebClient {
  private readonly allow: readonly string[];

  constructor(private readonly opts: FetchWebClientOptions) {
    this.allow = opts.testOnlyAllowHosts ?? [];
  }

  async fetchOnce(url: string, o: WebRequestOptions): Promise<Result<WebResponse>> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return err("invalid_input", `not an absolute URL: ${url.slice(0, 200)}`);
    }
    const allowed = checkDestination(parsed, this.allow);
    if (!allowed.ok) return allowed;
    const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
    if (this.opts.resolver && !isIpLiteral(parsed.hostname) && !this.allow.includes(`${parsed.hostname}:${port}`)) {
      const resolved = await this.opts.resolver.resolve(parsed.hostname, o.signal);
      if (!resolved.ok)
        return err(
          "forbidden",
          `refused: ${parsed.hostname} could not be resolved to check it is public (${resolved.error.message})`,
        );
      const publicOnly = checkResolvedAddresses(parsed.hostname, resolved.value);
      if (!publicOnly.ok) return publicOnly;
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(new Error("cancelled"));
    if (o.signal.aborted) onAbort();
    o.signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new Error("timeout")), o.timeoutMs);
    // Called unbound: the global fetch refuses a foreign `this` (workerd's "Illegal invocation").
    const fetchImpl = this.opts.fetch;
    try {
      const res = await fetchImpl(parsed.href, {
        method: "GET",
        redirect: "manual",
        signal: controller.signal,
        headers: {
          accept: "text/html,application/xhtml+xml,text/plain,application/json,application/xml;q=0.9,*/*;q=0.5",
          "user-agent": "wyckoff-edge/0.1 (web_fetch)",
        },
      });
      const declared = Number(res.headers.get("content-length") ?? "NaN");
      const tooLong = Number.isFinite(declared) && declared > o.maxBytes;
      if (tooLong) await res.body?.cancel().catch(() => {});
      const { bytes, over } = tooLong
        ? { bytes: new Uint8Array(), over: true }
        : await readCapped(res.body, o.maxBytes);
      return ok({
        url: parsed.href,
        status: res.status,
        contentType: res.headers.get("content-type") ?? "",
        location: res.headers.get("location"),
        body: bytes,
        overLimit: over,
      });
    } catch (error) {
      if (o.signal.aborted) return err("upstream_unavailable", "cancelled");
      const timedOut = controller.signal.aborted;
      return err(
        "upstream_unavailable",
        timedOut
          ? `${parsed.host} did not answer within ${o.timeoutMs / 1000} s`
          : `could not reach ${parsed.host}: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
