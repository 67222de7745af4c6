/**
 * Handler of `web_fetch`: follows redirects by hand (each hop goes through the `WebClient` port,
 * which checks the destination again), caps the body at 1 MB, accepts text-like content types only,
 * reduces HTML to text and hands the model 8,000 characters; a longer text is saved whole to the
 * user's workspace under `web/`.
 */
import { htmlTitle, htmlToText } from "../../lib/html-text";
import { err, ok, type Result } from "../../lib/result";
import { checkDestination } from "../../lib/url-policy";
import type { WebResponse } from "../../ports/web-client";
import type { ToolHandler } from "../bind";
import type { ToolContext, ToolDeps } from "../deps";
import { WEB_MAX_BYTES, WEB_TEXT_CHARS, type webFetchSpec } from "../specs/web-fetch";

/** Redirects followed at most. */
export const MAX_REDIRECTS = 5;
/** Time allowed per request (ms). */
export const WEB_TIMEOUT_MS = 15_000;

const TEXT_TYPES = [
  "text/html",
  "application/xhtml+xml",
  "text/plain",
  "text/markdown",
  "text/csv",
  "text/xml",
  "application/xml",
  "application/rss+xml",
  "application/atom+xml",
  "application/json",
  "application/ld+json",
];

function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function decode(body: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** Parses and pre-checks a URL (scheme, credentials); the port re-checks the host on every hop. */
function parseUrl(raw: string, base?: string): Result<URL> {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return err("invalid_input", `not an absolute URL: ${raw.slice(0, 200)}`);
  }
  const scheme = checkDestination({
    protocol: url.protocol,
    hostname: "example.com",
    port: "",
    username: url.username,
    password: url.password,
  });
  return scheme.ok ? ok(url) : scheme;
}

/** Follows redirects by hand; answers the final response. */
async function follow(start: URL, deps: ToolDeps, ctx: ToolContext): Promise<Result<WebResponse>> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const res = await deps.web.fetchOnce(url.href, {
      maxBytes: WEB_MAX_BYTES,
      timeoutMs: WEB_TIMEOUT_MS,
      signal: ctx.signal,
    });
    if (!res.ok) return hop === 0 ? res : err(res.error.code, `redirect to ${url.href}: ${res.error.message}`);
    const { status, location } = res.value;
    if (status < 300 || status > 399 || location === null) return res;
    if (hop >= MAX_REDIRECTS) return err("upstream_unavailable", `more than ${MAX_REDIRECTS} redirects`);
    const next = parseUrl(location, url.href);
    if (!next.ok) return err(next.error.code, `redirect refused: ${next.error.message}`);
    url = next.value;
  }
}

/** Fetches one public page as text. */
export const webFetchHandler: ToolHandler<typeof webFetchSpec> = async (input, deps, ctx) => {
  const start = parseUrl(input.url.trim());
  if (!start.ok) return start;
  const fetched = await follow(start.value, deps, ctx);
  if (!fetched.ok) return fetched;
  const res = fetched.value;
  const host = new URL(res.url).host;
  if (res.status >= 400)
    return err(res.status === 404 ? "not_found" : "upstream_unavailable", `${host} answered HTTP ${res.status}`);
  if (res.status >= 300) return err("upstream_unavailable", `${host} answered HTTP ${res.status} without a location`);
  if (res.overLimit) return err("payload_too_large", `the page is larger than ${WEB_MAX_BYTES} bytes (1 MB cap)`);
  const type = mediaType(res.contentType);
  if (!TEXT_TYPES.includes(type))
    return err(
      "invalid_input",
      `content type ${type || "(none)"} is not readable text; allowed: ${TEXT_TYPES.join(", ")}`,
    );
  const raw = decode(res.body, res.contentType);
  const isHtml = type === "text/html" || type === "application/xhtml+xml";
  const text = isHtml ? htmlToText(raw) : raw.trim();
  const title = isHtml ? htmlTitle(raw) : undefined;
  const truncated = text.length > WEB_TEXT_CHARS;
  let savedTo: string | undefined;
  if (truncated) {
    const path = `web/${host.replace(/[^\w.-]/g, "_")}-${new Date(deps.clock()).toISOString().replace(/[:.]/g, "-")}.txt`;
    try {
      await deps.files.put(ctx.userId, path, new TextEncoder().encode(text), "text/plain; charset=utf-8");
      savedTo = path;
    } catch {
      savedTo = undefined; // the preview still answers; the rest is simply not kept
    }
  }
  return ok({
    url: input.url,
    finalUrl: res.url,
    status: res.status,
    contentType: res.contentType,
    ...(title ? { title } : {}),
    text: truncated
      ? `${text.slice(0, WEB_TEXT_CHARS)}\n[… truncated: ${text.length - WEB_TEXT_CHARS} more characters${savedTo ? ` in ${savedTo}` : ""}]`
      : text,
    totalChars: text.length,
    truncated,
    ...(savedTo ? { savedTo } : {}),
  });
};
