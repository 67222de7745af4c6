/**
 * Stock codes named in a text, for exact matching in recall: A-share 6-digit codes (with or without
 * an SH/SZ/BJ prefix or suffix) and US tickers written `$AAPL` or `AAPL.US`.
 */

const A_SHARE =
  /(?<![0-9A-Za-z])(?:(?:sh|sz|bj)\.?)?((?:60|68|00|30|43|83|87|88|92)\d{4})(?:\.(?:sh|sz|bj|ss))?(?![0-9])/gi;
const US_TICKER = /(?:\$([A-Z]{1,5})\b|\b([A-Z]{1,5})\.US\b)/g;

/** Distinct codes in order of appearance (A-share digits, US tickers upper-case). */
export function stockCodes(text: string): string[] {
  const found: { at: number; code: string }[] = [];
  for (const m of text.matchAll(A_SHARE)) if (m[1]) found.push({ at: m.index, code: m[1] });
  for (const m of text.matchAll(US_TICKER)) {
    const code = m[1] ?? m[2];
    if (code) found.push({ at: m.index, code });
  }
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.code))];
}
