/**
 * Where `web_fetch` may go (pure policy, core ring). A destination must be http(s) on a public name
 * or a public IP literal: private, loopback, link-local, shared, multicast and reserved ranges of
 * IPv4 and IPv6 are refused, in every spelling (dotted, decimal `2130706433`, octal `0177.0.0.1`,
 * hex `0x7f.1`, IPv4-mapped/compatible/NAT64 IPv6), and so are local names (`localhost`, `*.local`,
 * `*.internal`, single-label hosts). Callers parse the URL (WHATWG) and pass its parts here.
 *
 * Names: well-known loopback-alias domains (`*.nip.io`, `localtest.me`, …) are refused by name. Other
 * names are checked by resolution where the caller can resolve (`checkResolvedAddresses`; the fetch
 * adapter does it in `local` mode through a `HostResolver`). Limitation: Workers have no DNS API and
 * the resolution is a separate DoH query, so a name whose answer changes between the check and the
 * fetch (DNS rebinding) is left to the platform: Cloudflare's `fetch` from a deployed Worker does not
 * reach private networks behind it.
 */
import { err, ok, type Result } from "./result";

/** The parts of a parsed URL the policy looks at (WHATWG `URL` fields). */
export interface Destination {
  /** e.g. `https:` */
  protocol: string;
  /** Host without port; IPv6 literals in brackets, as `URL.hostname` gives them. */
  hostname: string;
  /** Port as text; "" for the scheme's default. */
  port: string;
  username?: string;
  password?: string;
}

/** Why a destination was refused. */
export type HostClass = "public" | "loopback" | "private" | "link-local" | "reserved" | "local-name";

/** Parses an IPv4 literal in any inet_aton spelling (1–4 parts, decimal/octal/hex); null if not one. */
export function parseIPv4(host: string): number | null {
  const parts = host.split(".");
  if (parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = Number(p);
    else return null;
    if (!Number.isSafeInteger(n)) return null;
    nums.push(n);
  }
  const last = nums.length - 1;
  for (let i = 0; i < last; i++) if ((nums[i] ?? 256) > 255) return null;
  const tail = nums[last] ?? 0;
  if (tail >= 256 ** (4 - last)) return null;
  let value = 0;
  for (let i = 0; i < last; i++) value += (nums[i] ?? 0) * 256 ** (3 - i);
  return value + tail;
}

function inV4(ip: number, base: string, bits: number): boolean {
  const b = parseIPv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(b / size);
}

/** Classifies a 32-bit IPv4 address. */
export function classifyIPv4(ip: number): HostClass {
  if (inV4(ip, "127.0.0.0", 8)) return "loopback";
  if (inV4(ip, "10.0.0.0", 8) || inV4(ip, "172.16.0.0", 12) || inV4(ip, "192.168.0.0", 16)) return "private";
  if (inV4(ip, "100.64.0.0", 10)) return "private"; // carrier-grade NAT (shared)
  if (inV4(ip, "169.254.0.0", 16)) return "link-local"; // includes cloud metadata 169.254.169.254
  const reserved: [string, number][] = [
    ["0.0.0.0", 8],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.88.99.0", 24],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ];
  return reserved.some(([base, bits]) => inV4(ip, base, bits)) ? "reserved" : "public";
}

/** Parses an IPv6 literal (with or without brackets, zone ids refused) into 8 groups; null if not one. */
export function parseIPv6(host: string): number[] | null {
  const h = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (!h.includes(":") || h.includes("%")) return null;
  let text = h.toLowerCase();
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseIPv4(dotted[2] ?? "");
    if (v4 === null || !/^\d+\.\d+\.\d+\.\d+$/.test(dotted[2] ?? "")) return null;
    text = `${dotted[1]}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groupsOf(halves[0] ?? "");
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

/** Classifies an IPv6 address given as 8 groups (embedded IPv4 forms judged as IPv4). */
export function classifyIPv6(g: readonly number[]): HostClass {
  const at = (i: number) => g[i] ?? 0;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const v4 = (at(6) * 65536 + at(7)) >>> 0;
  if (zeroUpTo(7) && at(7) === 1) return "loopback";
  if (zeroUpTo(8)) return "reserved";
  if (zeroUpTo(5) && at(5) === 0xffff) return classifyIPv4(v4); // IPv4-mapped ::ffff:0:0/96
  if (zeroUpTo(4) && at(4) === 0xffff && at(5) === 0) return classifyIPv4(v4); // IPv4-translated ::ffff:0:0:0/96
  if (zeroUpTo(6)) return classifyIPv4(v4); // IPv4-compatible (deprecated)
  if (at(0) === 0x64 && at(1) === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyIPv4(v4); // NAT64
  if (at(0) === 0x64 && at(1) === 0xff9b && at(2) === 1) return "private"; // NAT64 local-use 64:ff9b:1::/48
  if (at(0) === 0x2002) return classifyIPv4((at(1) * 65536 + at(2)) >>> 0); // 6to4
  if (at(0) === 0x2001 && at(1) === 0) {
    // Teredo 2001::/32: server IPv4 in groups 2–3, the client's IPv4 inverted in groups 6–7.
    const server = classifyIPv4((at(2) * 65536 + at(3)) >>> 0);
    const client = classifyIPv4(~v4 >>> 0);
    return server !== "public" ? server : client !== "public" ? client : "reserved";
  }
  if ((at(4) === 0 || at(4) === 0x200) && at(5) === 0x5efe && classifyIPv4(v4) !== "public") {
    return classifyIPv4(v4); // ISATAP interface id ::0:5efe:a.b.c.d embeds an IPv4 address
  }
  if ((at(0) & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((at(0) & 0xffc0) === 0xfe80) return "link-local";
  if ((at(0) & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated)
  if ((at(0) & 0xff00) === 0xff00) return "reserved"; // multicast
  if (at(0) === 0x2001 && at(1) === 0x0db8) return "reserved"; // documentation
  if (at(0) === 0x2001 && at(1) < 0x200) return "reserved"; // Teredo, benchmarking, ORCHID…
  if (at(0) === 0x100 && zeroUpTo(4)) return "reserved"; // discard-only
  return "public";
}

/** Classifies a host name or IP literal as `URL.hostname` gives it. */
export function classifyHost(hostname: string): HostClass {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const v6 = parseIPv6(host);
  if (v6) return classifyIPv6(v6);
  if (host.includes(":") || host.startsWith("[")) return "reserved"; // malformed or zoned IPv6
  const v4 = parseIPv4(host);
  if (v4 !== null) return classifyIPv4(v4);
  // Looks numeric but is not a valid address (e.g. 999.1.1.1): never a public name.
  if (/^[0-9.]+$/.test(host) || /^0x[0-9a-f]*$/i.test(host.split(".")[0] ?? "")) return "reserved";
  if (host === "" || !host.includes(".")) return "local-name"; // localhost, intranet single labels
  const local = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".intranet", ".lan", ".corp"];
  if (local.some((suffix) => host.endsWith(suffix))) return "local-name";
  if (isLoopbackAliasName(host)) return "loopback";
  return "public";
}

/**
 * Public DNS names that resolve to loopback or to an address spelled in the name: wildcard-DNS
 * services (`127.0.0.1.nip.io`, `10-0-0-1.sslip.io`) and the well-known loopback aliases
 * (`localtest.me`, `lvh.me`, …). Refused everywhere: they exist to point a public name at a private
 * address. This is a list, not resolution; `checkResolvedAddresses` covers names that resolve.
 */
const LOOPBACK_ALIAS_DOMAINS = [
  "nip.io",
  "sslip.io",
  "xip.io",
  "nip.direct",
  "traefik.me",
  "localtest.me",
  "lvh.me",
  "vcap.me",
  "lacolhost.com",
  "localho.st",
  "localhost.direct",
  "fuf.me",
  "yoogle.com",
  "ulh.us",
  "smackaho.st",
  "1u.ms",
  "rbndr.us",
];

/** True when `host` (lower case, no trailing dot) is or lies under a loopback-alias domain. */
export function isLoopbackAliasName(host: string): boolean {
  return LOOPBACK_ALIAS_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`));
}

/** True when `hostname` (as `URL.hostname` gives it) is an IPv4 or IPv6 literal, not a name. */
export function isIpLiteral(hostname: string): boolean {
  return parseIPv6(hostname) !== null || parseIPv4(hostname) !== null;
}

/** Classifies an address a name resolved to (A/AAAA record text); anything unparsable is reserved. */
export function classifyResolvedAddress(address: string): HostClass {
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(address)) {
    const v4 = parseIPv4(address);
    if (v4 !== null) return classifyIPv4(v4);
  }
  return "reserved";
}

/** The verdict on a name's resolved addresses: every one must be public. */
export function checkResolvedAddresses(hostname: string, addresses: readonly string[]): Result<readonly string[]> {
  for (const a of addresses) {
    const kind = classifyResolvedAddress(a);
    if (kind !== "public")
      return err(
        "forbidden",
        `refused: ${hostname} resolves to ${a}, a ${kind} address; web_fetch reaches public hosts only`,
      );
  }
  return ok(addresses);
}

/**
 * Checks a destination. `allowHosts` lists exact `host:port` pairs let through whatever their class:
 * only tests pass it (through the fetch adapter's constructor), never a setting.
 */
export function checkDestination(d: Destination, allowHosts: readonly string[] = []): Result<Destination> {
  if (d.protocol !== "http:" && d.protocol !== "https:")
    return err("invalid_input", `only http and https URLs can be fetched (got ${d.protocol})`);
  if (d.username || d.password) return err("invalid_input", "URLs with credentials are refused");
  const port = d.port || (d.protocol === "https:" ? "443" : "80");
  if (allowHosts.includes(`${d.hostname}:${port}`)) return ok(d);
  const kind = classifyHost(d.hostname);
  if (kind !== "public")
    return err("forbidden", `refused: ${d.hostname} is a ${kind} address; web_fetch reaches public hosts only`);
  return ok(d);
}
