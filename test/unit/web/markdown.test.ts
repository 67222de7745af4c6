/**
 * The light markdown renderer (marked's lexer → React elements): GFM pieces render as elements, raw
 * HTML shows as text (a quoted `<code>` cannot swallow the rest of a message), unsafe links lose their
 * href, and an unterminated `**bold` mid-stream renders bold instead of raw asterisks.
 */
import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../web/components/markdown-renderer";

const html = (text: string, streaming = false) =>
  renderToStaticMarkup(createElement(Fragment, null, renderMarkdown(text, streaming)));

describe("markdown renderer", () => {
  it("renders headings, emphasis, lists, tables, code and quotes", () => {
    const out = html(
      "## Reading\n\nThe range **holds** and *tests* ~~fail~~ `x<y`.\n\n- one\n- [x] two\n\n1. a\n2. b\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```ts\nconst a = 1 < 2;\n```\n\n> quoted\n\n---",
    );
    expect(out).toContain("<h2>Reading</h2>");
    expect(out).toContain("<strong>holds</strong>");
    expect(out).toContain("<em>tests</em>");
    expect(out).toContain("<del>fail</del>");
    expect(out).toContain("<code>x&lt;y</code>");
    expect(out).toContain('<ul><li>one</li><li><input type="checkbox" disabled="" checked=""/> two</li></ul>');
    expect(out).toContain("<ol><li>a</li><li>b</li></ol>");
    expect(out).toContain("<th>a</th>");
    expect(out).toContain('<td style="text-align:right">2</td>');
    expect(out).toContain('<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>');
    expect(out).toContain("<blockquote><p>quoted</p></blockquote>");
    expect(out).toContain("<hr/>");
  });

  it("shows raw HTML as text and keeps the rest of the message", () => {
    const out = html("use <code> here *now*\n\n<div onclick=x>block</div>\n\nafter **this**");
    expect(out).toContain("use &lt;code&gt; here <em>now</em>");
    expect(out).toContain("&lt;div onclick=x&gt;block&lt;/div&gt;");
    expect(out).toContain("after <strong>this</strong>");
    expect(out).not.toMatch(/<code>\s*here/);
    expect(out).not.toContain("<div");
  });

  it("keeps safe links, drops unsafe hrefs and shows images as links", () => {
    const out = html(
      "[site](https://example.com) [bad](javascript:alert(1)) ![chart](https://example.com/a.png) [chart](/analysis/SH.600000)",
    );
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
    expect(out).not.toContain("javascript:");
    expect(out).toContain('<a href="https://example.com/a.png" target="_blank" rel="noopener noreferrer">chart</a>');
    expect(out).toContain('href="/analysis/SH.600000"');
    expect(out).not.toContain("<img");
  });

  it("closes unterminated emphasis while streaming", () => {
    expect(html("The range **hol", true)).toContain("<strong>hol</strong>");
    expect(html("```\ncode still coming", true)).toContain("<pre><code>code still coming");
  });
});
