/**
 * Redaction for traces, by value: anything that looks like a credential — API keys
 * (`sk-…`, `wk_…`, `ghp_…`, AWS/Google keys, JWTs, PEM private keys), bearer/basic credentials,
 * `api_key=…` / `password: …` assignments in free text and URL query strings, passwords in URLs — is
 * replaced wherever it appears in a string, at any depth. A structured pair whose key *is* a credential
 * name (`"password": "…"`, `"authorization": "…"`) is the same assignment in JSON form, so its string
 * value goes too. Numbers, booleans and keys that merely contain such a word (`inputTokens`) stay.
 */

const MARK = "[redacted]";

/** Credential formats recognised on sight (the whole match is replaced). */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,}/g, // OpenAI / Anthropic / Stripe style
  /\b(?:wk|shr|whsec|rk_live|pk_live|sk_live)_[A-Za-z0-9+/=_-]{16,}/g, // ours, webhook secrets, Stripe
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

/** `Bearer x` / `Basic x`: the scheme stays, the credential goes. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** `user:password@` in a URL: the user stays. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^/\s@]+@/gi;

/** `api_key=…`, `token: …`, `password is …` (the word `is` only after key/password/secret words). */
const ASSIGNMENT =
  /\b((?:api[-_ ]?key|apikey|access[-_]?token|refresh[-_]?token|auth[-_]?token|token|secret|client[-_]?secret|password|passwd|pwd|passphrase)\b["']?\s*(?:=|:)\s*["']?)[^\s"'&,;)}\]]{3,}/gi;
const SPOKEN = /\b((?:api[-_ ]?key|password|passwd|passphrase|secret)\s+is\s+["']?)[^\s"',;)]{3,}/gi;

/** Keys that are credential names themselves (whole key or its last `-`/`_`/`.` segment). */
const CREDENTIAL_KEY =
  /(^|[-_.])(api[-_]?key|apikey|token|access[-_]?token|refresh[-_]?token|password|passwd|secret|authorization|cookie|set-cookie)$/i;

/** `text` with every credential-looking value replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, MARK);
  return out
    .replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${MARK}`)
    .replace(URL_PASSWORD, (_m, head: string) => `${head}${MARK}@`)
    .replace(ASSIGNMENT, (m, head: string) => (m.slice(head.length) === MARK ? m : `${head}${MARK}`))
    .replace(SPOKEN, (m, head: string) => (m.slice(head.length) === MARK ? m : `${head}${MARK}`));
}

/** A deep copy of `value` with credential-looking string values redacted; other values unchanged. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return "[too deep]";
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = typeof v === "string" && v !== "" && CREDENTIAL_KEY.test(k) ? MARK : redactSecrets(v, depth + 1);
    return out;
  }
  return value;
}
