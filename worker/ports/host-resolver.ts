/**
 * Port: resolves a host name to its addresses, so the web_fetch adapter can refuse a public-looking
 * name that points at a private address. Workers have no DNS API: the edge adapter asks a
 * DNS-over-HTTPS server (`http/doh-resolver.ts`).
 */
import type { Result } from "../lib/result";
import type { CancelSignal } from "./web-client";

/** Resolves names to A/AAAA addresses (text form). */
export interface HostResolver {
  /** All A and AAAA addresses of `hostname`; an error when the name cannot be resolved or checked. */
  resolve(hostname: string, signal?: CancelSignal): Promise<Result<string[]>>;
}
