/**
 * Session profiles as the reading room offers them: a domain (market or instrument kind) and a
 * capability, joined as `domain:capability`, either part optional, none = the server's default
 * (every tool, 15 rounds). Pure.
 */
import type { StringKey } from "./strings";

/** Domains the server knows (README › Profiles). */
export const DOMAINS = ["cn-equity", "us-equity", "index"] as const;
/** Capabilities the server knows; `deep-dive` is the fixed five-step pipeline for one symbol. */
export const CAPABILITIES = ["research", "analysis", "trading", "quick", "deep-dive"] as const;

/** A domain. */
export type Domain = (typeof DOMAINS)[number];
/** A capability. */
export type Capability = (typeof CAPABILITIES)[number];

/** A profile split into its parts ("" = not chosen). */
export interface ProfileChoice {
  domain: string;
  capability: string;
}

const isDomain = (s: string): boolean => (DOMAINS as readonly string[]).includes(s);

/** The profile value to send for a choice: `domain:capability`, either alone, or null for the default. */
export function profileOf(choice: ProfileChoice): string | null {
  const { domain, capability } = choice;
  if (domain && capability) return `${domain}:${capability}`;
  return domain || capability || null;
}

/** Splits a stored profile into its parts, reading a lone part the way the server does. */
export function choiceOf(profile: string | null): ProfileChoice {
  if (!profile) return { domain: "", capability: "" };
  const [first = "", second] = profile.split(":");
  if (second !== undefined) return { domain: first, capability: second };
  return isDomain(first) ? { domain: first, capability: "" } : { domain: "", capability: first };
}

/** Display-name keys of the domains. */
export const DOMAIN_LABEL: Record<Domain, StringKey> = {
  "cn-equity": "domain_cn",
  "us-equity": "domain_us",
  index: "domain_index",
};

/** Display-name keys of the capabilities. */
export const CAPABILITY_LABEL: Record<Capability, StringKey> = {
  research: "cap_research",
  analysis: "cap_analysis",
  trading: "cap_trading",
  quick: "cap_quick",
  "deep-dive": "cap_deepDive",
};

function labelOf<K extends string>(table: Record<K, StringKey>, id: string, t: (key: StringKey) => string): string {
  return id in table ? t(table[id as K]) : id;
}

/** A profile in words (`US equities · Analysis`); the default profile's word when none is set. */
export function describeProfile(profile: string | null, t: (key: StringKey) => string): string {
  const { domain, capability } = choiceOf(profile);
  const parts = [
    domain ? labelOf(DOMAIN_LABEL, domain, t) : "",
    capability ? labelOf(CAPABILITY_LABEL, capability, t) : "",
  ].filter((p) => p !== "");
  return parts.length > 0 ? parts.join(" · ") : t("profileDefault");
}
