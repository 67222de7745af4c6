/**
 * The size discipline for stored values (one helper, used wherever a row is written). Durable Object
 * SQLite and D1 reject rows over 2 MB; every value that can grow past {@link ROW_BUDGET_BYTES} (stream
 * events, UI and model messages, tool inputs and errors, text, reasoning, D1 free text) is split across
 * rows (`splitToBudget`) or cut to a bounded excerpt with its true length (`excerpt`, `boundText`).
 * Errors quote at most {@link ERROR_EXCERPT_CHARS} characters of what the model sent.
 */

/** Largest stored value per row, in UTF-8 bytes (well under the platform's 2 MB; rows stay < 1 MB). */
export const ROW_BUDGET_BYTES = 256 * 1024;
/** Most characters of model-sent text an error message quotes. */
export const ERROR_EXCERPT_CHARS = 300;

/** UTF-8 byte length of `text` (no TextEncoder in the core ring). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** True when `text` is over `maxBytes` UTF-8 bytes (fast path: short strings never are). */
export function overBudget(text: string, maxBytes = ROW_BUDGET_BYTES): boolean {
  if (text.length * 3 <= maxBytes) return false;
  return text.length > maxBytes || utf8Length(text) > maxBytes;
}

/** At most `maxChars` characters of `text`, with how much was left out (never splits a surrogate pair). */
export function excerpt(text: string, maxChars = ERROR_EXCERPT_CHARS): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${text.slice(0, end)}… [${(text.length - end).toLocaleString("en-US")} more characters]`;
}

/** `text` if within `maxBytes`, else an excerpt that is (with its marker). */
export function boundText(text: string, maxBytes = ROW_BUDGET_BYTES): string {
  if (!overBudget(text, maxBytes)) return text;
  // 4 bytes per character at most: this many characters always fit, marker included.
  return excerpt(text, Math.floor(maxBytes / 4) - 64);
}

/** Splits `text` into consecutive pieces of at most `maxBytes` UTF-8 bytes each (joined, they are `text`). */
export function splitToBudget(text: string, maxBytes = ROW_BUDGET_BYTES): string[] {
  if (!overBudget(text, maxBytes)) return [text];
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) {
      pieces.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
    if (pair) i++;
  }
  pieces.push(text.slice(start));
  return pieces;
}
