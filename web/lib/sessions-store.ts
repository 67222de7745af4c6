/**
 * The session list, shared by the sidebar and the pages that change it (a first message names a
 * session; rename and delete). An external store over api-client; components only read it.
 */
import type { SessionSummary } from "@contracts/api";
import { useSyncExternalStore } from "react";
import { api, errorMessage } from "./api-client";

interface SessionsState {
  sessions: SessionSummary[] | null;
  error: string | null;
}

let state: SessionsState = { sessions: null, error: null };
const listeners = new Set<() => void>();
let inflight: Promise<void> | null = null;

function set(next: SessionsState): void {
  state = next;
  for (const l of listeners) l();
}

/** Reloads the list from the server (coalesces concurrent calls). */
export function refreshSessions(): Promise<void> {
  inflight ??= api
    .listSessions()
    .then((r) => set({ sessions: r.sessions, error: null }))
    .catch((e: unknown) => set({ ...state, error: errorMessage(e) }))
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Creates a session and returns its id. */
export async function createSession(): Promise<string> {
  const { id } = await api.createSession();
  await refreshSessions();
  return id;
}

/** Renames a session (optimistically in the list). */
export async function renameSession(id: string, title: string): Promise<void> {
  await api.renameSession(id, title);
  set({ ...state, sessions: state.sessions?.map((s) => (s.id === id ? { ...s, title } : s)) ?? null });
  void refreshSessions();
}

/** Deletes a session. */
export async function deleteSession(id: string): Promise<void> {
  await api.deleteSession(id);
  set({ ...state, sessions: state.sessions?.filter((s) => s.id !== id) ?? null });
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The list as last loaded. */
export function useSessions(): SessionsState {
  return useSyncExternalStore(subscribe, () => state);
}
