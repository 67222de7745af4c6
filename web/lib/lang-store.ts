/**
 * The UI language: chosen from the browser on first visit, switchable, remembered in localStorage.
 * A tiny external store read with useSyncExternalStore (no provider needed).
 */
import { useCallback, useSyncExternalStore } from "react";
import { format, langFromLocales, STRINGS, type Lang, type StringKey } from "./strings";

const KEY = "wyckoff-edge.lang";
const listeners = new Set<() => void>();

function initial(): Lang {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === "zh" || saved === "en") return saved;
  } catch {
    // storage unavailable (private mode): fall back to the browser
  }
  return langFromLocales(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
}

let current: Lang = initial();
document.documentElement.lang = current === "zh" ? "zh-CN" : "en";

/** The UI language now (outside React: error text picked when it is shown). */
export function currentLang(): Lang {
  return current;
}

/** Switches the UI language. */
export function setLang(lang: Lang): void {
  current = lang;
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // not remembered; still switched
  }
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Translator for the current language. */
export type Translate = (key: StringKey, vars?: Record<string, string | number>) => string;

/** The current language and its translator. */
export function useT(): { lang: Lang; t: Translate } {
  const lang = useSyncExternalStore(subscribe, () => current);
  const t = useCallback<Translate>((key, vars) => format(STRINGS[lang][key], vars), [lang]);
  return { lang, t };
}
