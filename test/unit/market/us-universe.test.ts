/**
 * The US universe list (bundled S&P 500 default and the `US_UNIVERSE` setting's formats), the
 * listing Yahoo's chart meta names, and the US run's batches.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planUsBatches, FETCH_BATCH } from "../../../worker/background/market-sync/plan";
import { parseUsUniverseList, usTicker } from "../../../worker/market/parse/us-universe-list";
import { parseYahooDaily } from "../../../worker/market/parse/yahoo-chart";
import { US_UNIVERSE_DEFAULT, US_UNIVERSE_DEFAULT_SOURCE } from "../../../worker/market/sync/us-universe-default";
import { usUniverseList } from "../../../worker/market/sync/us-universe";

const fixture = (f: string): string =>
  readFileSync(path.join(import.meta.dirname, "../../fixtures/upstream", f), "utf8");

describe("US universe list", () => {
  it("the bundled default is the S&P 500 with a GICS sector for every symbol, its source named", () => {
    const r = parseUsUniverseList(US_UNIVERSE_DEFAULT);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toHaveLength(503);
    expect(new Set(r.value.map((e) => e.ticker)).size).toBe(503);
    expect(r.value.find((e) => e.ticker === "AAPL")).toEqual({
      ticker: "AAPL",
      name: "Apple Inc.",
      industry: "Information Technology",
    });
    expect(r.value.some((e) => e.ticker === "BRK-B")).toBe(true); // BRK.B in Yahoo's spelling
    const sectors = new Set(r.value.map((e) => e.industry));
    expect(sectors.size).toBe(11);
    expect(sectors.has(null)).toBe(false);
    expect(US_UNIVERSE_DEFAULT_SOURCE).toMatch(/S&P 500.*2026-08-08/);
    const wired = usUniverseList(null);
    expect(wired.ok && wired.value.source).toBe(US_UNIVERSE_DEFAULT_SOURCE);
  });

  it("a setting overrides it: plain symbols or SYMBOL|Name|Industry lines, comments, duplicates once", () => {
    const r = usUniverseList("# mine\nmsft|Microsoft|Software\naapl, BRK.B nvda\nMSFT");
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.source).toBe("the US_UNIVERSE setting");
    expect(r.value.entries).toEqual([
      { ticker: "MSFT", name: "Microsoft", industry: "Software" },
      { ticker: "AAPL", name: null, industry: null },
      { ticker: "BRK-B", name: null, industry: null },
      { ticker: "NVDA", name: null, industry: null },
    ]);
  });

  it("refuses a list with unreadable symbols (naming them) or none at all", () => {
    const bad = parseUsUniverseList("AAPL, $$$, toolongtickername");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/2 unreadable symbol\(s\): \$\$\$, toolongtickername/);
    expect(parseUsUniverseList(" # nothing\n").ok).toBe(false);
    expect(usTicker("bf.b")).toBe("BF-B");
    expect(usTicker("^GSPC")).toBeNull();
  });
});

describe("Yahoo listing", () => {
  it("reads the listing from the chart meta (a 2020 response without longName names no name)", () => {
    const r = parseYahooDaily(fixture("yahoo/chart-AAPL-2020-08-31.json"));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.listing).toEqual({ ticker: "AAPL", name: null, venue: "NMS", currency: "USD", kind: "stock" });
  });

  it("prefers longName and fullExchangeName; ETF is an etf", () => {
    const body = JSON.parse(fixture("yahoo/chart-AAPL-2020-08-31.json")) as {
      chart: { result: { meta: Record<string, unknown> }[] };
    };
    const meta = body.chart.result[0]?.meta ?? {};
    Object.assign(meta, {
      longName: "Apple Inc.",
      shortName: "Apple",
      fullExchangeName: "NasdaqGS",
      instrumentType: "ETF",
    });
    const r = parseYahooDaily(JSON.stringify(body));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.listing).toMatchObject({ name: "Apple Inc.", venue: "NasdaqGS", kind: "etf" });
  });
});

describe("US run batches", () => {
  it("fetches the index first, then every symbol once, in fetch-sized batches", () => {
    const ids = Array.from({ length: 60 }, (_, i) => `US.T${i}`);
    const batches = planUsBatches([...ids, "US.T0"], ["US.SPX"]);
    expect(batches.map((b) => b.batch)).toEqual([0, 1, 2]);
    expect(batches.every((b) => b.mode === "fetch")).toBe(true);
    const items = batches.flatMap((b) => b.items as string[]);
    expect(items[0]).toBe("US.SPX");
    expect(items).toHaveLength(61);
    expect(batches[0]?.items).toHaveLength(FETCH_BATCH);
  });
});
