/**
 * The scan state's shared moves: change the phase, close the open structure with its outcome,
 * record an event. Used by the structure opening (scan-open.ts) and the scan itself (scan-structure.ts).
 */
import type { PhaseName } from "../contracts/analysis";
import type { RawEvent, ScanState, StructureOutcome } from "./structure-types";

export function setPhase(state: ScanState, phase: PhaseName, index: number, t: number, reason: string): void {
  if (state.phase === phase) return;
  state.phase = phase;
  state.phaseSince = index;
  state.trendExtreme = Number.NaN;
  state.phases.push({ phase, index, at: t, reason });
}

export function closeStructure(state: ScanState, t: number, outcome: StructureOutcome): void {
  const st = state.structure;
  if (st) {
    st.outcome = outcome;
    st.endIndex = t;
    state.closed.push(st);
  }
  state.structure = null;
  state.closedAt = t;
}

export function push(state: ScanState, ev: RawEvent | null): ev is RawEvent {
  if (!ev) return false;
  state.events.push(ev);
  return true;
}
