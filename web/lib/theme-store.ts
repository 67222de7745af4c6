/**
 * The colour theme: `auto` (the system's), `light` or `dark`, remembered in localStorage and set as
 * `data-theme` on <html> (desk.css overrides the system's colours). `useDark()` answers whether the
 * page is dark now, so the chart redraws on a switch as well as on a system change.
 */
import { useSyncExternalStore } from "react";

/** A theme choice. */
export type Theme = "auto" | "light" | "dark";

const KEY = "wyckoff-edge.theme";
const listeners = new Set<() => void>();
const media = window.matchMedia("(prefers-color-scheme: dark)");

function saved(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    if (v === "light" || v === "dark") return v;
  } catch {
    // storage unavailable: follow the system
  }
  return "auto";
}

let current: Theme = saved();
apply();
media.addEventListener("change", () => {
  for (const l of listeners) l();
});

function apply(): void {
  if (current === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = current;
}

/** Chooses a theme. */
export function setTheme(theme: Theme): void {
  current = theme;
  apply();
  try {
    if (theme === "auto") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    // not remembered; still applied
  }
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Whether the page is dark now. */
export function isDark(): boolean {
  return current === "dark" || (current === "auto" && media.matches);
}

/** The chosen theme. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, () => current);
}

/** Whether the page is dark (re-renders on a switch or a system change). */
export function useDark(): boolean {
  return useSyncExternalStore(subscribe, isDark);
}
