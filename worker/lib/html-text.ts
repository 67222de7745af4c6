/**
 * HTML reduced to readable text (pure): scripts, styles and other non-content elements dropped, block
 * elements on their own lines, list items bulleted, entities decoded, whitespace collapsed. Not a
 * full parser: good enough to hand a page's prose to the model.
 */

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  laquo: "«",
  raquo: "»",
  ldquo: "“",
  rdquo: "”",
  lsquo: "‘",
  rsquo: "’",
  middot: "·",
  copy: "©",
  reg: "®",
  yen: "¥",
  euro: "€",
  times: "×",
};

/** Decodes named and numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

const DROPPED = ["head", "title", "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object"];
const BLOCK =
  /<\/?(p|div|section|article|main|header|footer|nav|aside|h[1-6]|ul|ol|table|tr|blockquote|pre|form|fieldset|figure|figcaption|dl|dt|dd|hr|br)\b[^>]*>/gi;

/** The page's `<title>`, if any. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = m
    ? decodeEntities(m[1] ?? "")
        .replace(/\s+/g, " ")
        .trim()
    : "";
  return title === "" ? undefined : title;
}

/** Reduces an HTML document to text. */
export function htmlToText(html: string): string {
  let s = html.replace(/<!--[\s\S]*?-->/g, " ");
  for (const tag of DROPPED) s = s.replace(new RegExp(`<${tag}\\b[\\s\\S]*?<\\/${tag}\\s*>`, "gi"), " ");
  s = s
    .replace(/<li\b[^>]*>/gi, "\n• ")
    .replace(/<\/(td|th)\s*>/gi, "\t")
    .replace(BLOCK, "\n")
    .replace(/<[^>]*>/g, "");
  s = decodeEntities(s);
  return s
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .filter((line, i, all) => line !== "" || (i > 0 && all[i - 1] !== ""))
    .join("\n")
    .trim();
}
