import { describe, expect, it } from "vitest";
import { buildRecallQuery, QUERY_TERM_CAPS, quoteTerm } from "../../../worker/memory/fts-query";

const TERM = /"(?:[^"]|"")*"/;
const WELL_FORMED = new RegExp(`^${TERM.source}(?: OR ${TERM.source})*$`);

describe("buildRecallQuery", () => {
  it("builds trigrams, padded bigrams, words and codes, each quoted", () => {
    const q = buildRecallQuery("回踩确认怎么看 600519 weekly");
    expect(q.codes).toEqual(["600519"]);
    expect(q.match).toBe('"600519" OR "weekly" OR "回踩确" OR "踩确认" OR " 回踩 " OR " 踩确 " OR " 确认 "');
    expect(q.keywords).toEqual(["回踩", "踩确", "确认", "weekly"]);
  });

  it("matches a 2-character word through the padded keyword phrase", () => {
    expect(buildRecallQuery("回踩").match).toBe('" 回踩 "');
  });

  it("has no query for text without terms", () => {
    expect(buildRecallQuery("？？ !! 的了").match).toBeNull();
    expect(buildRecallQuery("").match).toBeNull();
  });

  it("turns FTS syntax in the text into plain quoted terms", () => {
    for (const text of [
      '"unbalanced',
      'he said "回踩" AND NOT (x',
      "NEAR(回踩 确认, 3)",
      "volume* OR price^ -foo +bar",
      "content:回踩 {keywords}: x",
      ")))(((",
      "'; DROP TABLE memories; --",
    ]) {
      const { match } = buildRecallQuery(text);
      if (match !== null) expect(match).toMatch(WELL_FORMED);
      expect(match ?? "").not.toMatch(/(?:^|\s)(?:AND|NOT|NEAR)(?:\s|\(|$)/);
    }
  });

  it("bounds the number of terms whatever the length", () => {
    const q = buildRecallQuery("放量突破回踩确认缩量企稳".repeat(50) + " word".repeat(100));
    const terms = (q.match ?? "").split(" OR ").length;
    expect(terms).toBeLessThanOrEqual(
      QUERY_TERM_CAPS.codes + QUERY_TERM_CAPS.words + QUERY_TERM_CAPS.trigrams + QUERY_TERM_CAPS.bigrams,
    );
  });

  it("doubles quotes inside a term", () => {
    expect(quoteTerm('a"b')).toBe('"a""b"');
  });
});
