/** Address helpers for the edge's client checks. */

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (`::ffff:127.x.x.x`). */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return v4.startsWith("127.") || ip === "::1";
}
