/**
 * Fake market-data upstream on loopback: answers in each provider's documented response format so
 * the real adapters (fetch + parser) run in tests. Canned responses are registered per path (and
 * optional query substring) by tests through `register()` or the `/__fixtures` control endpoint;
 * every request is recorded. Unmatched paths answer 404 so a test missing a fixture fails loudly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eastmoneyKline } from "./formats";
import { fakeClistRows, fakeKline, fakeYahooChart, type FakeMarketSpec, type FakeUsSpec } from "./fake-market";

/** One canned answer. `body` is sent as given (string) or JSON-encoded (anything else). */
export interface Fixture {
  /** Path the request must have, e.g. `/api/qt/stock/kline/get`. */
  path: string;
  /** Substring the raw query string must contain (e.g. `secid=1.600519`); omitted = any query. */
  query?: string;
  status?: number;
  contentType?: string;
  /** Extra response headers (e.g. `location` of a redirect). */
  headers?: Record<string, string>;
  /** Body: text, or base64 when `encoding` is "base64" (for GBK-encoded providers). */
  body: unknown;
  encoding?: "utf8" | "base64";
  /** Answer this many times, then fall through to later fixtures (default: forever). */
  times?: number;
  /** Delay before answering, to exercise timeouts. */
  delayMs?: number;
  /**
   * Failure instead of an answer: `reset` closes the connection without a response (Eastmoney's
   * `RemoteDisconnected`), `hang` never answers (timeouts).
   */
  fault?: "reset" | "hang";
  /**
   * Eastmoney clist paging: the whole market's rows; the page `pn` is served with at most 100 rows
   * whatever `pz` asks (the 2025 cap), as `{ data: { total, diff } }`.
   */
  clistRows?: unknown[];
  /**
   * A whole fake market (fake-market.ts): on the clist path it serves the list of `market.day`; on
   * the K-line path each secid's bars. Register it once per path.
   */
  market?: FakeMarketSpec;
  /**
   * A fake US universe (fake-market.ts) on a Yahoo chart path prefix (`…/v8/finance/chart/`): the
   * ticker is the rest of the path. Matches any path that starts with `path`.
   */
  usMarket?: FakeUsSpec;
  /** Put this fixture before the ones already registered (faults that must win over a market). */
  first?: boolean;
}

/** Rows per page the fake Eastmoney clist serves at most (DOMAIN.md §2.2). */
export const CLIST_PAGE_CAP = 100;

/** A request the fake upstream received. */
export interface RecordedUpstreamRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A running fake upstream. */
export interface FakeUpstream {
  url: string;
  port: number;
  register(fixture: Fixture): void;
  reset(): void;
  requests(): RecordedUpstreamRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function isFixture(value: unknown): value is Fixture {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { path?: unknown }).path === "string" &&
    "body" in value
  );
}

/** Starts the fake upstream on 127.0.0.1 (random port unless given). */
export async function startFakeUpstream(opts: { port?: number; fixtures?: Fixture[] } = {}): Promise<FakeUpstream> {
  let fixtures: Fixture[] = [...(opts.fixtures ?? [])];
  // The fake market's list, built once per spec (5,300 symbols' bars are not rebuilt per page).
  const listCache = new Map<string, Record<string, unknown>[]>();
  const seen: RecordedUpstreamRequest[] = [];

  const send = (
    res: ServerResponse,
    status: number,
    contentType: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
  ): void => {
    res.writeHead(status, { ...headers, "content-type": contentType });
    res.end(body);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/__fixtures") {
        if (req.method === "DELETE") {
          fixtures = [];
          return send(res, 204, "text/plain", "");
        }
        const parsed: unknown = JSON.parse(await readBody(req));
        const list = Array.isArray(parsed) ? parsed : [parsed];
        if (!list.every(isFixture))
          return send(res, 400, "application/json", JSON.stringify({ error: "fixture needs path and body" }));
        for (const f of list) {
          if (f.first) fixtures.unshift(f);
          else fixtures.push(f);
        }
        return send(res, 204, "text/plain", "");
      }
      if (url.pathname === "/__requests") return send(res, 200, "application/json", JSON.stringify(seen));

      seen.push({ method: req.method ?? "GET", path: url.pathname, query: url.search.slice(1), headers: req.headers });
      const index = fixtures.findIndex(
        (f) =>
          (f.path === url.pathname || (f.usMarket !== undefined && url.pathname.startsWith(f.path))) &&
          (f.query === undefined || url.search.includes(f.query)),
      );
      const fixture = fixtures[index];
      if (!fixture)
        return send(
          res,
          404,
          "application/json",
          JSON.stringify({ error: `no fixture for ${url.pathname}${url.search}` }),
        );
      if (fixture.times !== undefined) {
        fixture.times -= 1;
        if (fixture.times <= 0) fixtures.splice(index, 1);
      }
      if (fixture.delayMs) await new Promise((r) => setTimeout(r, fixture.delayMs));
      if (fixture.fault === "reset") return void req.socket.destroy();
      if (fixture.fault === "hang") return;
      if (fixture.usMarket) {
        const ticker = decodeURIComponent(url.pathname.slice(fixture.path.length));
        const q = url.searchParams;
        const chart = fakeYahooChart(fixture.usMarket, ticker, {
          range: q.get("range") ?? undefined,
          period1: q.get("period1") ?? undefined,
          period2: q.get("period2") ?? undefined,
        });
        return send(res, chart.status, "application/json", JSON.stringify(chart.body));
      }
      if (fixture.market) {
        const spec = fixture.market;
        if (url.pathname.endsWith("/clist/get")) {
          const key = JSON.stringify(spec);
          let rows = listCache.get(key);
          if (!rows) {
            rows = fakeClistRows(spec);
            listCache.set(key, rows);
          }
          const pn = Math.max(1, Number(url.searchParams.get("pn") ?? "1"));
          const pz = Math.min(CLIST_PAGE_CAP, Math.max(1, Number(url.searchParams.get("pz") ?? "20")));
          const diff = rows.slice((pn - 1) * pz, pn * pz);
          return send(
            res,
            200,
            "application/json",
            JSON.stringify({ rc: 0, data: diff.length ? { total: rows.length, diff } : null }),
          );
        }
        const q = url.searchParams;
        const k = fakeKline(spec, q.get("secid") ?? "", {
          beg: q.get("beg") ?? undefined,
          end: q.get("end") ?? undefined,
          lmt: q.get("lmt") ? Number(q.get("lmt")) : undefined,
          fqt: q.get("fqt") ?? undefined,
        });
        const body = k ? eastmoneyKline(k.code, k.market, k.name, k.bars) : eastmoneyKline("", 0, "", null);
        return send(res, 200, "application/json", JSON.stringify(body));
      }
      if (fixture.clistRows) {
        const pn = Math.max(1, Number(url.searchParams.get("pn") ?? "1"));
        const pz = Math.min(CLIST_PAGE_CAP, Math.max(1, Number(url.searchParams.get("pz") ?? "20")));
        const diff = fixture.clistRows.slice((pn - 1) * pz, pn * pz);
        const body = { rc: 0, data: diff.length ? { total: fixture.clistRows.length, diff } : null };
        return send(res, 200, "application/json", JSON.stringify(body));
      }
      const body =
        typeof fixture.body === "string"
          ? Buffer.from(fixture.body, fixture.encoding === "base64" ? "base64" : "utf8")
          : JSON.stringify(fixture.body);
      send(res, fixture.status ?? 200, fixture.contentType ?? "application/json", body, fixture.headers);
    })().catch((error: unknown) => send(res, 500, "text/plain", String(error)));
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    register: (fixture) => void fixtures.push(fixture),
    reset: () => {
      fixtures = [];
      seen.length = 0;
    },
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
