/**
 * A tiny history router, no dependency: `/`, `/c/:id`, `/analysis/:symbol`, the read-only share page
 * `/s/:token`, `/portfolio` and `/settings`.
 */
import { useSyncExternalStore } from "react";

/** The page a path shows. */
export type Route =
  | { page: "home" }
  | { page: "chat"; sessionId: string }
  | { page: "analysis"; symbol: string }
  | { page: "share"; token: string }
  | { page: "portfolio" }
  | { page: "settings" }
  | { page: "memory" }
  | { page: "unknown" };

/** Parses a pathname into a route. */
export function parseRoute(pathname: string): Route {
  if (pathname === "/" || pathname === "") return { page: "home" };
  const chat = pathname.match(/^\/c\/([^/]+)\/?$/);
  if (chat?.[1]) return { page: "chat", sessionId: decodeURIComponent(chat[1]) };
  const analysis = pathname.match(/^\/analysis\/([^/]+)\/?$/);
  if (analysis?.[1]) return { page: "analysis", symbol: decodeURIComponent(analysis[1]) };
  const share = pathname.match(/^\/s\/([^/]+)\/?$/);
  if (share?.[1]) return { page: "share", token: decodeURIComponent(share[1]) };
  if (/^\/portfolio\/?$/.test(pathname)) return { page: "portfolio" };
  if (/^\/settings\/?$/.test(pathname)) return { page: "settings" };
  if (/^\/memory\/?$/.test(pathname)) return { page: "memory" };
  return { page: "unknown" };
}

/** The path of a chat page. */
export function chatPath(sessionId: string): string {
  return `/c/${encodeURIComponent(sessionId)}`;
}

/** The path of a full-size analysis page. */
export function analysisPath(symbol: string, end?: string): string {
  return `/analysis/${encodeURIComponent(symbol)}${end ? `?end=${encodeURIComponent(end)}` : ""}`;
}

/** The `end` date of an analysis page's address (`?end=YYYY-MM-DD`: the market as it stood then), if well formed. */
export function analysisEnd(search: string): string | undefined {
  const end = new URLSearchParams(search).get("end");
  return end && /^\d{4}-\d{2}-\d{2}$/.test(end) ? end : undefined;
}

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

/** Goes to a path without reloading. */
export function navigate(path: string, opts: { replace?: boolean } = {}): void {
  if (path === location.pathname) return;
  if (opts.replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  notify();
}

function subscribe(l: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("popstate", notify);
  listeners.add(l);
  return () => {
    listeners.delete(l);
    if (listeners.size === 0) window.removeEventListener("popstate", notify);
  };
}

/** The current pathname, re-rendering on navigation. */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => location.pathname);
}
