/** Address helpers for the edge's client checks. */
import { classifyIPv6, parseIPv6 } from "./url-policy";

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const DOTTED_QUAD = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/**
 * True for a client address in 127.0.0.0/8, `::1` or an IPv6 form embedding a 127.x address
 * (`::ffff:127.0.0.1`). The text must be a whole, canonical address (as `CF-Connecting-IP` carries it):
 * `127.evil`, `127.0.0.1.example` or `0177.0.0.1` are not loopback.
 */
export function isLoopback(ip: string): boolean {
  const text = ip.trim();
  if (DOTTED_QUAD.test(text)) return text.split(".")[0] === "127";
  const v6 = parseIPv6(text);
  return v6 !== null && classifyIPv6(v6) === "loopback";
}
