/** Number helpers shared by the provider parsers: providers send "-", "", null or strings for numbers. */

/** A finite number from a provider field, or null ("-", "", NaN, null). */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const t = value.trim();
  if (t === "" || t === "-" || t === "--") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Rounds to `digits` decimals (prices to cents after unit conversions). */
export function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** True when the OHLC values make a valid bar (positive, high/low enclosing open/close). */
export function isValidOhlc(open: number, high: number, low: number, close: number): boolean {
  return (
    open > 0 &&
    high > 0 &&
    low > 0 &&
    close > 0 &&
    high >= low &&
    high >= open &&
    high >= close &&
    low <= open &&
    low <= close
  );
}
