/**
 * The skills list shared by the composer's `/` menu and the skills manager: loaded once on first use,
 * reloaded after the manager changes it. An external store over api-client; components only read it.
 */
import type { SkillView } from "@contracts/skills";
import { useEffect, useSyncExternalStore } from "react";
import { agentApi, errorMessage } from "./api-client";

interface SkillsState {
  skills: SkillView[] | null;
  error: string | null;
}

let state: SkillsState = { skills: null, error: null };
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: SkillsState): void {
  state = next;
  for (const l of listeners) l();
}

/** Reloads the list from the server. */
export function refreshSkills(): Promise<void> {
  loading = agentApi.listSkills().then(
    (skills) => set({ skills, error: null }),
    (e: unknown) => set({ ...state, error: errorMessage(e) }),
  );
  return loading;
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The skills as last loaded; `wanted` starts the first load (so pages that never need them never ask). */
export function useSkills(wanted = true): SkillsState {
  useEffect(() => {
    if (wanted && loading === null) void refreshSkills();
  }, [wanted]);
  return useSyncExternalStore(subscribe, () => state);
}
