/**
 * The US universe list (market sync): the bundled default (market/sync/us-universe-default.ts) or a
 * deployment's `US_UNIVERSE` setting. Accepted: one `SYMBOL|Name|Industry` per line (name and
 * industry optional, `#` starts a comment), or plain symbols separated by commas, spaces or new
 * lines. Symbols are written as the exchanges write them or as Yahoo does (`BRK.B` = `BRK-B`);
 * stored ids use Yahoo's form (`US.BRK-B`), which the chart API answers to.
 */
import { err, ok, type Result } from "../../lib/result";
import type { UsListEntry } from "../../ports/market-sync";

export type { UsListEntry };

/** Most symbols a list may name (a guard on a mistyped setting; the whole US market is ~6,000). */
export const US_LIST_MAX = 8000;

const TICKER = /^[A-Z][A-Z0-9]{0,9}(-[A-Z0-9]{1,4})?$/;

/** `brk.b` / `BRK/B` / `BRK-B` → `BRK-B`; null when it is not a plausible US ticker. */
export function usTicker(raw: string): string | null {
  const t = raw.trim().toUpperCase().replace(/[./]/g, "-");
  return TICKER.test(t) ? t : null;
}

const field = (s: string | undefined): string | null => {
  const v = (s ?? "").trim();
  return v === "" ? null : v.slice(0, 120);
};

/** Parses a list; duplicates keep their first entry. Unreadable symbols fail the whole list (naming them). */
export function parseUsUniverseList(text: string): Result<UsListEntry[]> {
  const entries: UsListEntry[] = [];
  const seen = new Set<string>();
  const bad: string[] = [];
  const add = (rawTicker: string, name: string | null, industry: string | null) => {
    const ticker = usTicker(rawTicker);
    if (!ticker) return void bad.push(rawTicker.trim());
    if (seen.has(ticker)) return;
    seen.add(ticker);
    entries.push({ ticker, name, industry });
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    if (line === "") continue;
    if (line.includes("|")) {
      const [t, name, industry] = line.split("|");
      add(t ?? "", field(name), field(industry));
    } else for (const t of line.split(/[\s,;]+/)) if (t !== "") add(t, null, null);
  }
  if (bad.length > 0)
    return err(
      "invalid_input",
      `US universe list: ${bad.length} unreadable symbol(s): ${bad.slice(0, 5).join(", ")}${bad.length > 5 ? ", …" : ""}`,
    );
  if (entries.length === 0) return err("invalid_input", "US universe list names no symbol");
  if (entries.length > US_LIST_MAX)
    return err("invalid_input", `US universe list names ${entries.length} symbols (at most ${US_LIST_MAX})`);
  return ok(entries);
}
