/** `query_history` input: run_date must be a real calendar day, not just the YYYY-MM-DD shape. */
import { describe, expect, it } from "vitest";
import { HistoryQuery } from "../../../worker/contracts/history";

describe("query_history run_date", () => {
  it.each(["2024-13-45", "2023-02-29", "2024-04-31", "2024-00-10", "2024-1-5"])("refuses %s", (d) => {
    expect(HistoryQuery.safeParse({ run_date: d }).success).toBe(false);
  });
  it.each(["2024-02-29", "2024-12-31"])("accepts %s", (d) => {
    expect(HistoryQuery.safeParse({ run_date: d }).success).toBe(true);
  });
});
