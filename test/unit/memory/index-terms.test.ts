/** The recall index of a memory: the terms a recall query asks for, with FTS-like frequencies. */
import { describe, expect, it } from "vitest";
import { buildRecallQuery } from "../../../worker/memory/fts-query";
import { LENGTH_TERM, memoryIndexTerms } from "../../../worker/memory/index-terms";
import { extractKeywords } from "../../../worker/memory/keywords";

function termsOf(content: string, codes: string[] = []): Map<string, number> {
  return new Map(memoryIndexTerms({ content, keywords: extractKeywords(content), codes }).map((t) => [t.term, t.tf]));
}

describe("memoryIndexTerms", () => {
  it("indexes every term a question about the memory asks for", () => {
    const content = "我喜欢放量突破之后回踩确认 I prefer a Breakout on 600519";
    const indexed = termsOf(content, ["600519"]);
    for (const q of ["放量突破怎么看", "回踩确认", "breakout 600519"])
      for (const term of buildRecallQuery(q).terms) expect(indexed.has(term), `${q}: ${term}`).toBe(true);
  });

  it("counts occurrences in the content and keywords, case-insensitively, and the length first", () => {
    const content = "Breakout, then breakout again: 突破突破";
    const list = memoryIndexTerms({ content, keywords: ["breakout", "突破"], codes: [] });
    expect(list[0]).toEqual({ term: LENGTH_TERM, tf: [...content].length - 2 + " breakout 突破 ".length - 2 });
    const tf = new Map(list.map((t) => [t.term, t.tf]));
    expect(tf.get("breakout")).toBe(3);
    expect(tf.get("突破突")).toBe(1);
    expect(tf.get("突破")).toBe(1);
  });

  it("leaves out codes that only the codes column names (the FTS index never held them)", () => {
    expect(termsOf("no code in the text", ["600519"]).has("600519")).toBe(false);
  });

  it("keeps FTS syntax as plain terms", () => {
    expect(buildRecallQuery('"回踩 AND (NEAR( *').terms).toEqual(["near", "回踩"]);
  });
});
