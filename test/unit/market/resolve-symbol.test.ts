/** Reading symbols typed by people and models: codes, suffixes, secids, aliases, simulated codes. */
import { describe, expect, it } from "vitest";
import { cnBoard, indexAlias, symbolCandidates } from "../../../worker/market/parse/resolve-symbol";

const ids = (input: string, kind?: "stock" | "index") => symbolCandidates(input, kind).map((c) => c.id);

describe("symbolCandidates", () => {
  it("reads 000001 as Ping An Bank by default and as the SSE Composite when an index is asked for", () => {
    expect(ids("000001")).toEqual(["SZ.000001", "SH.000001"]);
    expect(ids("000001", "index")).toEqual(["SH.000001", "SZ.000001"]);
  });

  it("honours Eastmoney secids: 1.000001 is the SSE Composite, 0.000001 is Ping An Bank", () => {
    expect(symbolCandidates("1.000001")).toEqual([{ id: "SH.000001", exchange: "SH", code: "000001", kind: "index" }]);
    expect(symbolCandidates("0.000001")).toEqual([{ id: "SZ.000001", exchange: "SZ", code: "000001", kind: "stock" }]);
  });

  it("reads Tencent, Yahoo and Tushare forms", () => {
    expect(ids("sh600519")).toEqual(["SH.600519"]);
    expect(ids("600519.SS")).toEqual(["SH.600519"]);
    expect(ids("000001.sz")).toEqual(["SZ.000001"]);
    expect(ids("SZ.300750")).toEqual(["SZ.300750"]);
    expect(ids("830799")).toEqual(["BJ.830799"]);
    expect(ids("399006")).toEqual(["SZ.399006"]);
  });

  it("reads index aliases in English and Chinese, and the S&P 500", () => {
    expect(ids("csi300")).toEqual(["SH.000300"]);
    expect(ids("创业板指")).toEqual(["SZ.399006"]);
    expect(ids("S&P 500")).toEqual(["US.SPX"]);
    expect(indexAlias("上证指数")?.id).toBe("SH.000001");
  });

  it("keeps simulated codes in their own market", () => {
    expect(ids("SIM.0001")).toEqual(["SIM.0001"]);
    expect(ids("sim0042")).toEqual(["SIM.0042"]);
    expect(ids("SIM.IDX1")).toEqual(["SIM.IDX1"]);
  });

  it("treats short Latin words as US tickers and Chinese names as names", () => {
    expect(ids("AAPL")).toEqual(["US.AAPL"]);
    expect(ids("贵州茅台")).toEqual([]);
    expect(ids("")).toEqual([]);
  });

  it("boards by code prefix", () => {
    expect([cnBoard("688981"), cnBoard("300750"), cnBoard("830799"), cnBoard("600519")]).toEqual([
      "star",
      "chinext",
      "bse",
      "main",
    ]);
  });
});
