/**
 * DohResolver: the `HostResolver` port over DNS-over-HTTPS (RFC 8484 JSON form, as served by
 * Cloudflare's and Google's resolvers). Workers have no DNS API, so this is the only way a Worker can
 * learn where a name points before fetching it. Offline (no route to the DoH server) every lookup
 * fails, and the caller refuses the name: the check fails closed.
 */
import { err, ok, type Result } from "../lib/result";
import type { HostResolver } from "../ports/host-resolver";
import type { CancelSignal } from "../ports/web-client";

/** Options of the adapter. */
export interface DohResolverOptions {
  fetch: typeof fetch;
  /** The DoH JSON endpoint; default Cloudflare's. */
  endpoint?: string;
  timeoutMs?: number;
}

interface DohAnswer {
  Status?: number;
  Answer?: { type?: number; data?: string }[];
}

const A = 1;
const AAAA = 28;

/** The adapter. */
export class DohResolver implements HostResolver {
  constructor(private readonly opts: DohResolverOptions) {}

  async resolve(hostname: string, signal?: CancelSignal): Promise<Result<string[]>> {
    const out: string[] = [];
    for (const type of [A, AAAA]) {
      const r = await this.query(hostname, type, signal);
      if (!r.ok) return r;
      out.push(...r.value);
    }
    if (out.length === 0) return err("upstream_unavailable", `${hostname} has no address`);
    return ok(out);
  }

  private async query(hostname: string, type: number, signal?: CancelSignal): Promise<Result<string[]>> {
    const endpoint = this.opts.endpoint ?? "https://cloudflare-dns.com/dns-query";
    const url = `${endpoint}?name=${encodeURIComponent(hostname)}&type=${type}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.opts.timeoutMs ?? 3000);
    const onAbort = () => controller.abort(new Error("cancelled"));
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const fetchImpl = this.opts.fetch;
    try {
      const res = await fetchImpl(url, { headers: { accept: "application/dns-json" }, signal: controller.signal });
      if (!res.ok) return err("upstream_unavailable", `could not resolve ${hostname} (DoH ${res.status})`);
      const body = (await res.json()) as DohAnswer;
      if (body.Status !== 0 && body.Status !== 3)
        return err("upstream_unavailable", `could not resolve ${hostname} (DNS status ${body.Status})`);
      return ok(
        (body.Answer ?? []).filter((a) => a.type === type && typeof a.data === "string").map((a) => a.data ?? ""),
      );
    } catch {
      return err("upstream_unavailable", `could not resolve ${hostname} to check where it points`);
    } finally {
      clearTimeout(timer);
    }
  }
}
