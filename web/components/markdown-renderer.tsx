/**
 * Streaming-safe markdown, light: `marked`'s lexer (GFM: tables, task lists, strikethrough, autolinks)
 * turned into React elements here, with `remend` closing what a stream left open (`**bold`, an open
 * fence or link) while it grows. Nothing is ever set as HTML: raw HTML in the text shows as text (a
 * quoted `<code>` stays visible and cannot swallow the rest of the message), links are kept only for
 * http(s), mailto and same-site paths and open in a new tab, images show as links (no remote loads).
 * Loaded lazily by `markdown.tsx` (≈ 20 KB gzip, where the previous renderer was ≈ 150 KB).
 */
import { Lexer, type Token, type Tokens } from "marked";
import { Fragment, memo, useMemo, type ReactNode } from "react";
import remend from "remend";
import { decodeEntities } from "../lib/markdown-text";

const SAFE_URL = /^(?:https?:|mailto:|\/(?!\/)|#)/i;

function safeHref(href: string): string | null {
  const h = href.trim();
  return SAFE_URL.test(h) ? h : null;
}

function inline(tokens: readonly Token[] | undefined, key = "i"): ReactNode {
  if (!tokens) return null;
  return tokens.map((t, i) => <Fragment key={`${key}${i}`}>{inlineToken(t, `${key}${i}.`)}</Fragment>);
}

function inlineToken(t: Token, key: string): ReactNode {
  switch (t.type) {
    case "strong":
      return <strong>{inline(t.tokens, key)}</strong>;
    case "em":
      return <em>{inline(t.tokens, key)}</em>;
    case "del":
      return <del>{inline(t.tokens, key)}</del>;
    case "codespan":
      return <code>{decodeEntities(t.text)}</code>;
    case "br":
      return <br />;
    case "link": {
      const href = safeHref(t.href);
      const body = inline(t.tokens, key);
      if (!href) return body;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {body}
        </a>
      );
    }
    case "image": {
      const href = safeHref(t.href);
      const alt = t.text || t.href;
      return href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {alt}
        </a>
      ) : (
        alt
      );
    }
    case "text":
      return "tokens" in t && t.tokens ? inline(t.tokens, key) : decodeEntities(t.text);
    case "escape":
      return decodeEntities(t.text);
    case "html":
      // shown as written, never parsed
      return t.raw;
    default:
      return "raw" in t ? (t as { raw: string }).raw : null;
  }
}

function block(tokens: readonly Token[], key = "b"): ReactNode {
  return tokens.map((t, i) => <Fragment key={`${key}${i}`}>{blockToken(t, `${key}${i}.`)}</Fragment>);
}

function listItem(item: Tokens.ListItem, key: string, loose: boolean): ReactNode {
  // A tight list's items hold text tokens whose inline tokens are the content.
  // marked puts a task item's box in as a `checkbox` token; the box is drawn here instead.
  const tokens = item.tokens.filter((t) => t.type !== "checkbox");
  const body = loose
    ? block(tokens, key)
    : tokens.map((t, i) => (
        <Fragment key={`${key}${i}`}>
          {t.type === "text" ? inlineToken(t, `${key}${i}.`) : blockToken(t, `${key}${i}.`)}
        </Fragment>
      ));
  return (
    <li>
      {item.task && <input type="checkbox" checked={item.checked ?? false} disabled />}
      {item.task && " "}
      {body}
    </li>
  );
}

function blockToken(t: Token, key: string): ReactNode {
  switch (t.type) {
    case "space":
      return null;
    case "heading": {
      const Tag = `h${Math.min(6, Math.max(1, t.depth))}` as "h1";
      return <Tag>{inline(t.tokens, key)}</Tag>;
    }
    case "paragraph":
      return <p>{inline(t.tokens, key)}</p>;
    case "text":
      return <p>{"tokens" in t && t.tokens ? inline(t.tokens, key) : decodeEntities(t.text)}</p>;
    case "code":
      return (
        <pre>
          <code className={t.lang ? `language-${String(t.lang).split(/\s/)[0]}` : undefined}>{t.text}</code>
        </pre>
      );
    case "blockquote":
      return <blockquote>{block(t.tokens ?? [], key)}</blockquote>;
    case "hr":
      return <hr />;
    case "list": {
      const items = (t as Tokens.List).items.map((item, i) => (
        <Fragment key={`${key}${i}`}>{listItem(item, `${key}${i}.`, t.loose)}</Fragment>
      ));
      return t.ordered ? (
        <ol start={t.start === "" || t.start === 1 ? undefined : Number(t.start)}>{items}</ol>
      ) : (
        <ul>{items}</ul>
      );
    }
    case "table": {
      const table = t as Tokens.Table;
      const align = (i: number) => table.align[i] ?? undefined;
      return (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                {table.header.map((cell, i) => (
                  <th key={i} style={align(i) ? { textAlign: align(i) ?? undefined } : undefined}>
                    {inline(cell.tokens, `${key}h${i}.`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} style={align(i) ? { textAlign: align(i) ?? undefined } : undefined}>
                      {inline(cell.tokens, `${key}r${r}c${i}.`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case "html":
      // raw HTML blocks show as text
      return <p>{t.raw}</p>;
    case "def":
      return null;
    default:
      return "raw" in t ? <p>{(t as { raw: string }).raw}</p> : null;
  }
}

/** Markdown as React elements (exported for tests). */
export function renderMarkdown(text: string, streaming: boolean): ReactNode {
  const source = streaming ? remend(text, { linkMode: "text-only", images: false }) : text;
  return block(new Lexer({ gfm: true }).lex(source));
}

/** Renders markdown; `streaming` keeps incomplete syntax from flashing as raw characters. */
export const MarkdownRenderer = memo(function MarkdownRenderer({
  text,
  streaming,
}: {
  text: string;
  streaming: boolean;
}) {
  const body = useMemo(() => renderMarkdown(text, streaming), [text, streaming]);
  return <div className="md">{body}</div>;
});
