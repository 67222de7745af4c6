/** Text helpers shared by the markdown renderer and its plain fallback (no markdown parser here). */

/** Decodes the few HTML entities `marked` and the server's markdown quoting write. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * Markdown source as the characters a reader will see, for the moment before the renderer has
 * loaded: CommonMark backslash escapes of ASCII punctuation dropped, entities decoded. Markup itself
 * (`**`, `#`, lists) stays as typed.
 */
export function plainMarkdown(text: string): string {
  return decodeEntities(text.replace(/\\([!-/:-@[-`{-~])/g, "$1"));
}
