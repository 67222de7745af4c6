/**
 * The one way market adapters reach a provider: per-host pacing (minimum interval between requests),
 * an 8 s timeout, at most one retry with jitter (the daily_stock_analysis lesson: more retries get IPs
 * banned), and a per-host circuit breaker. `fetch`, the clock, sleep and the jitter RNG are injected.
 */
import { err, ok, type Result } from "../lib/result";

/** A provider response that arrived (any status ≥ 200 and < 400, or 404). */
export interface HttpResponse {
  status: number;
  bytes: ArrayBuffer;
  text(): string;
}

/** Dependencies and limits. */
export interface HttpClientOptions {
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Uniform [0, 1) for retry jitter. */
  random: () => number;
  timeoutMs?: number;
  /** Retries after the first attempt (0 or 1). */
  retries?: number;
  /** Minimum gap between two requests to the same host (ms; default 0 = no pacing). */
  minIntervalMs?: (host: string) => number;
  /** Consecutive failures that open a host's breaker, and how long it stays open. */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
  headers?: Record<string, string>;
}

/** GETs URLs under the client's policies. */
export interface HttpClient {
  get(url: string, init?: { headers?: Record<string, string> }): Promise<Result<HttpResponse>>;
  /** Breaker state of a host, for diagnostics and tests. */
  breakerOpen(host: string): boolean;
}

/** Default browser-like headers (Eastmoney and Sina refuse bare clients more often). */
export const BROWSER_HEADERS: Record<string, string> = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  accept: "application/json, text/javascript, */*; q=0.01",
};

interface HostState {
  failures: number;
  openUntil: number;
  nextSlot: number;
}

type Attempt =
  | { kind: "ok"; res: HttpResponse }
  | { kind: "retry"; why: string }
  | { kind: "fail"; code: "rate_limited" | "upstream_unavailable"; why: string };

/** Creates a client; its pacing and breaker state live as long as the client. */
export function createHttpClient(o: HttpClientOptions): HttpClient {
  const timeoutMs = o.timeoutMs ?? 8000;
  const retries = Math.min(1, Math.max(0, o.retries ?? 1));
  const threshold = o.breakerThreshold ?? 3;
  const cooldown = o.breakerCooldownMs ?? 60_000;
  const hosts = new Map<string, HostState>();
  const state = (host: string): HostState => {
    let s = hosts.get(host);
    if (!s) {
      s = { failures: 0, openUntil: 0, nextSlot: 0 };
      hosts.set(host, s);
    }
    return s;
  };

  async function pace(host: string): Promise<void> {
    const gap = o.minIntervalMs?.(host) ?? 0;
    if (gap <= 0) return;
    const s = state(host);
    const now = o.now();
    const slot = Math.max(now, s.nextSlot);
    s.nextSlot = slot + gap;
    if (slot > now) await o.sleep(slot - now);
  }

  async function attempt(url: string, headers: Record<string, string>): Promise<Attempt> {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), timeoutMs);
    try {
      const res = await o.fetch(url, { headers, signal: ctrl.signal });
      const bytes = await res.arrayBuffer();
      if (res.status === 429) return { kind: "fail", code: "rate_limited", why: "HTTP 429 (rate limited)" };
      if (res.status >= 500) return { kind: "retry", why: `HTTP ${res.status}` };
      if (res.status >= 400 && res.status !== 404)
        return { kind: "fail", code: "upstream_unavailable", why: `HTTP ${res.status}` };
      return { kind: "ok", res: { status: res.status, bytes, text: () => new TextDecoder().decode(bytes) } };
    } catch (e) {
      const why = ctrl.signal.aborted
        ? `timed out after ${timeoutMs} ms`
        : `connection failed (${e instanceof Error ? e.message : String(e)})`;
      return { kind: "retry", why };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    breakerOpen: (host) => state(host).openUntil > o.now(),
    async get(url, init = {}) {
      const host = new URL(url).host;
      const s = state(host);
      if (s.openUntil > o.now())
        return err("upstream_unavailable", `${host} is failing; skipped for now (circuit open)`, { host });
      const headers = { ...BROWSER_HEADERS, ...o.headers, ...init.headers };
      let last: Attempt = { kind: "retry", why: "not attempted" };
      for (let i = 0; i <= retries; i++) {
        if (i > 0) await o.sleep(Math.round(250 + 500 * o.random()));
        await pace(host);
        last = await attempt(url, headers);
        if (last.kind !== "retry") break;
      }
      if (last.kind === "ok") {
        s.failures = 0;
        return ok(last.res);
      }
      s.failures += 1;
      if (s.failures >= threshold) s.openUntil = o.now() + cooldown;
      const code = last.kind === "fail" ? last.code : "upstream_unavailable";
      return err(code, `${host}: ${last.why}`, { host });
    },
  };
}
