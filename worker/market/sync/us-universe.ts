/** The US universe list the sync keeps: the `US_UNIVERSE` setting when given, else the bundled S&P 500. */
import { ok, type Result } from "../../lib/result";
import { parseUsUniverseList, type UsListEntry } from "../parse/us-universe-list";
import { US_UNIVERSE_DEFAULT, US_UNIVERSE_DEFAULT_SOURCE } from "./us-universe-default";

/** The list and where it comes from. */
export function usUniverseList(setting: string | null): Result<{ entries: UsListEntry[]; source: string }> {
  const parsed = parseUsUniverseList(setting ?? US_UNIVERSE_DEFAULT);
  if (!parsed.ok) return parsed;
  return ok({
    entries: parsed.value,
    source: setting === null ? US_UNIVERSE_DEFAULT_SOURCE : "the US_UNIVERSE setting",
  });
}
