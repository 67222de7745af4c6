/** Translator for the settings page's agent sections (usage, skills, hints) in the current UI language. */
import { useCallback } from "react";
import { useT } from "../lib/lang-store";
import { SETTINGS_STRINGS, type SettingsKey } from "../lib/settings-strings";
import { format } from "../lib/strings";

/** The language and its translator. */
export function useSettingsT(): {
  lang: "zh" | "en";
  t: (key: SettingsKey, vars?: Record<string, string | number>) => string;
} {
  const { lang } = useT();
  const t = useCallback(
    (key: SettingsKey, vars?: Record<string, string | number>) => format(SETTINGS_STRINGS[lang][key], vars),
    [lang],
  );
  return { lang, t };
}
