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
let generation = 0;

function set(next: SessionsState): void {
  state = next;
  for (const l of listeners) l();
}

/** Reloads the list from the server; only the latest request's answer is kept (no stale overwrite). */
export async function refreshSessions(): Promise<void> {
  const mine = ++generation;
  try {
    const r = await api.listSessions();
    if (mine === generation) set({ sessions: r.sessions, error: null });
  } catch (e) {
    if (mine === generation) set({ ...state, error: errorMessage(e) });
  }
}

/** Creates a session (with a profile, or the default when null) and returns its id. */
export async function createSession(profile: string | null = null): Promise<string> {
  const { id } = await api.createSession(profile ? { profile } : {});
  await refreshSessions();
  return id;
}

/** Renames a session (optimistically in the list). */
export async function renameSession(id: string, title: string): Promise<void> {
  await api.renameSession(id, title);
  set({ ...state, sessions: state.sessions?.map((s) => (s.id === id ? { ...s, title } : s)) ?? null });
  void refreshSessions();
}

/** Switches a session's profile (null = the default), updating the list. */
export async function switchProfile(id: string, profile: string | null): Promise<string | null> {
  const updated = await api.setProfile(id, profile);
  set({
    ...state,
    sessions: state.sessions?.map((s) => (s.id === id ? { ...s, profile: updated.profile } : s)) ?? null,
  });
  return updated.profile;
}

/** Deletes a session. */
export async function deleteSession(id: string): Promise<void> {
  await api.deleteSession(id);
  generation++; // an older list request in flight would bring the deleted row back
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
