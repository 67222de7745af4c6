/**
 * Parameter fallback for OpenAI-compatible endpoints that reject optional request parameters
 * (`stream_options`, `tool_choice`): a 400/422 naming one of them is retried once without it, and the
 * endpoint is remembered as rejecting it, so later requests leave it out from the start. The memory
 * is per isolate (a module-level map): a fresh isolate learns again with one extra request.
 */

/** Optional parameters an endpoint may reject; the request works without them. */
export const OPTIONAL_PARAMETERS = ["stream_options", "tool_choice"] as const;
type OptionalParameter = (typeof OPTIONAL_PARAMETERS)[number];

const rejectedBy = new Map<string, Set<OptionalParameter>>();

/** The parameters this isolate has seen `endpoint` reject (for diagnostics and tests). */
export function rejectedParameters(endpoint: string): OptionalParameter[] {
  return [...(rejectedBy.get(endpoint) ?? [])];
}

/** Forgets what was learnt (tests). */
export function forgetRejectedParameters(): void {
  rejectedBy.clear();
}

function parseBody(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function without(json: Record<string, unknown>, drop: ReadonlySet<OptionalParameter>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([k]) => !drop.has(k as OptionalParameter)));
}

/**
 * Wraps `fetchImpl` for one endpoint (its base URL is the memory's key). Only JSON bodies are
 * touched; everything else passes through unchanged.
 */
export function withParameterFallback(endpoint: string, fetchImpl: typeof fetch): typeof fetch {
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const known = rejectedBy.get(endpoint);
    // The common path sends the body untouched (no parse, no copy); only a learnt endpoint is rewritten.
    const firstBody = known ? parseBody(init?.body) : undefined;
    const response = await fetchImpl(
      input,
      firstBody && known ? { ...init, body: JSON.stringify(without(firstBody, known)) } : init,
    );
    if (response.status !== 400 && response.status !== 422) return response;
    const json = firstBody ?? parseBody(init?.body);
    if (!json) return response;
    const candidates = OPTIONAL_PARAMETERS.filter((p) => p in json && !known?.has(p));
    if (candidates.length === 0) return response;
    const text = await response.clone().text();
    const named = candidates.filter((p) => text.includes(p));
    if (named.length === 0) return response;
    const learnt = new Set([...(known ?? []), ...named]);
    rejectedBy.set(endpoint, learnt);
    return fetchImpl(input, { ...init, body: JSON.stringify(without(json, learnt)) });
  };
  return wrapped as typeof fetch;
}
