/**
 * Where each provider endpoint lives. Eastmoney and Tencent spread their endpoints over several
 * hosts while one base URL is configured per provider (CONTRACTS.md settings):
 * - base on the provider's own domain (the default): the real sibling hosts are used, and the base
 *   replaces only the K-line host (so `https://push2delay.eastmoney.com` or a numbered host works);
 * - any other base (a proxy, the test fake upstream): every host is served under a path prefix,
 *   `<base>/push2his/…`, `<base>/push2/…`, `<base>/search-codetable/…`, `<base>/ifzq/…`, `<base>/qt/…`,
 *   `<base>/smartbox/…`. Yahoo has one host, so its base is used as is.
 */

/** Eastmoney endpoints' origins (no trailing slash). */
export interface EastmoneyHosts {
  kline: string;
  clist: string;
  search: string;
}

/** Tencent endpoints' origins. */
export interface TencentHosts {
  kline: string;
  quote: string;
  search: string;
}

function onDomain(base: string, domain: string): boolean {
  try {
    const h = new URL(base).hostname;
    return h === domain || h.endsWith(`.${domain}`);
  } catch {
    return false;
  }
}

/** Eastmoney origins for a configured base. */
export function eastmoneyHosts(base: string): EastmoneyHosts {
  const b = base.replace(/\/+$/, "");
  if (onDomain(b, "eastmoney.com"))
    return { kline: b, clist: "https://push2.eastmoney.com", search: "https://search-codetable.eastmoney.com" };
  return { kline: `${b}/push2his`, clist: `${b}/push2`, search: `${b}/search-codetable` };
}

/** Tencent origins for a configured base. */
export function tencentHosts(base: string): TencentHosts {
  const b = base.replace(/\/+$/, "");
  if (onDomain(b, "gtimg.cn")) return { kline: b, quote: "https://qt.gtimg.cn", search: "https://smartbox.gtimg.cn" };
  return { kline: `${b}/ifzq`, quote: `${b}/qt`, search: `${b}/smartbox` };
}
