/**
 * Merging a profile `domain:capability` (either part optional) into the effective profile:
 * tools = capability's then domain's, in order, without duplicates; runtime mode: the domain's if it
 * declares one, else the capability's; unknown capability → every tool with 15 rounds / 600 s; no
 * profile → every tool, 15 rounds, 600 s, react. Definitions naming unknown tools are rejected.
 */
import { err, ok, type Result } from "../../lib/result";
import {
  CAPABILITIES,
  DEFAULT_DOMAIN,
  DOMAINS,
  FALLBACK_BUDGET,
  SUBAGENT_TOOLS,
  type PipelineStep,
} from "./definitions";

/** What a turn runs with. */
export interface EffectiveProfile {
  id: string;
  domain: string;
  capability: string | null;
  /** Visible tools, or null for "every tool". */
  tools: readonly string[] | null;
  maxRounds: number;
  timeoutMs: number;
  runtime: "react" | "pipeline";
  steps: readonly PipelineStep[];
  /** Profile-specific prompt lines (after the stable core). */
  prompt: string;
}

/** Checks every declaration against the registry; a profile naming an unknown tool is an error. */
export function validateProfiles(known: ReadonlySet<string>): Result<void> {
  const problems: string[] = [];
  const check = (where: string, tools: readonly string[]) => {
    for (const t of tools) if (!known.has(t)) problems.push(`${where} names unknown tool ${t}`);
  };
  for (const c of CAPABILITIES) {
    check(`capability ${c.id}`, c.tools);
    for (const s of c.steps ?? []) check(`capability ${c.id} step ${s.name}`, s.tools);
  }
  for (const d of DOMAINS) check(`domain ${d.id}`, d.tools);
  for (const [name, tools] of Object.entries(SUBAGENT_TOOLS)) check(`sub-agent ${name}`, tools);
  return problems.length > 0 ? err("invalid_input", problems.join("; ")) : ok(undefined);
}

function ordered(...lists: (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const list of lists) for (const t of list) if (!out.includes(t)) out.push(t);
  return out;
}

/** The effective profile for a session's profile string (null = the default). */
export function resolveProfile(profile: string | null): EffectiveProfile {
  const [first, second] = (profile ?? "").split(":");
  const domainId = second !== undefined ? first : DOMAINS.some((d) => d.id === first) ? first : undefined;
  const capabilityId = second !== undefined ? second : domainId === undefined ? first : undefined;
  const domain = DOMAINS.find((d) => d.id === domainId) ?? DOMAINS.find((d) => d.id === DEFAULT_DOMAIN);
  const capability = CAPABILITIES.find((c) => c.id === capabilityId);
  const base = {
    id: profile ?? "default",
    domain: domain?.id ?? DEFAULT_DOMAIN,
    prompt: [domain?.prompt, capability?.prompt].filter(Boolean).join("\n"),
  };
  if (!capability) {
    return {
      ...base,
      capability: capabilityId ?? null,
      tools: null,
      ...FALLBACK_BUDGET,
      runtime: domain?.runtime ?? "react",
      steps: [],
    };
  }
  return {
    ...base,
    capability: capability.id,
    tools: ordered(capability.tools, domain?.tools ?? []),
    maxRounds: capability.maxRounds,
    timeoutMs: capability.timeoutMs,
    runtime: domain?.runtime ?? capability.runtime ?? "react",
    steps: capability.steps ?? [],
  };
}
