/** The plain fallback shown before the markdown renderer loads reads as the rendered text would. */
import { describe, expect, it } from "vitest";
import { md } from "../../../worker/runtime/offline/answer-format";
import { decodeEntities, plainMarkdown } from "../../../web/lib/markdown-text";

describe("plainMarkdown", () => {
  it("undoes the server's markdown quoting of data: a quoted <b> reads as typed, not as &lt;b&gt;", () => {
    for (const s of [
      "I prefer <b>tight</b> stops on spring setups",
      "a * b [link](x) #tag | pipe ~strike~ `code` back\\slash & co",
      "止损 < 5% & 仓位 > 2 成",
    ])
      expect(plainMarkdown(md(s))).toBe(s);
  });

  it("keeps markup as typed and drops only escapes of ASCII punctuation", () => {
    expect(plainMarkdown("**bold** and \\*not\\*")).toBe("**bold** and *not*");
    expect(plainMarkdown("C:\\path\\to")).toBe("C:\\path\\to");
    expect(decodeEntities("&lt;&gt;&quot;&#39;&amp;lt;")).toBe("<>\"'&lt;");
  });
});
