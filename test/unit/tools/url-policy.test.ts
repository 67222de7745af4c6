/** The web_fetch destination policy: IP literals in every spelling, IPv6 forms, local names, schemes. */
import { describe, expect, it } from "vitest";
import {
  checkDestination,
  checkResolvedAddresses,
  classifyHost,
  parseIPv4,
  parseIPv6,
} from "../../../worker/lib/url-policy";

/** What the policy says about a URL as the WHATWG parser hands it over. */
function verdict(raw: string, allow: string[] = []): string {
  const url = new URL(raw);
  const r = checkDestination(url, allow);
  return r.ok ? "ok" : r.error.code;
}

describe("IPv4 literals", () => {
  it("parses the inet_aton spellings", () => {
    expect(parseIPv4("127.0.0.1")).toBe(0x7f000001);
    expect(parseIPv4("2130706433")).toBe(0x7f000001);
    expect(parseIPv4("0x7f.1")).toBe(0x7f000001);
    expect(parseIPv4("017700000001")).toBe(0x7f000001);
    expect(parseIPv4("0177.0.0.1")).toBe(0x7f000001);
    expect(parseIPv4("10.1")).toBe(0x0a000001);
    expect(parseIPv4("256.1.1.1")).toBeNull();
    expect(parseIPv4("1.2.3.4.5")).toBeNull();
    expect(parseIPv4("example.com")).toBeNull();
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["2130706433", "loopback"],
    ["0x7f.1", "loopback"],
    ["017700000001", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "reserved"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["198.18.0.1", "reserved"],
    ["999.1.1.1", "reserved"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["1.1.1.1", "public"],
  ])("%s is %s", (host, kind) => {
    expect(classifyHost(host)).toBe(kind);
  });
});

describe("IPv6 literals", () => {
  it("parses compressed and dotted forms", () => {
    expect(parseIPv6("[::1]")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(parseIPv6("fe80::1%eth0")).toBeNull();
  });

  it.each([
    ["[::1]", "loopback"],
    ["[::]", "reserved"],
    ["[::ffff:127.0.0.1]", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["[::ffff:a00:1]", "private"],
    ["[::ffff:169.254.169.254]", "link-local"],
    ["[64:ff9b::a00:1]", "private"],
    ["[2002:a00:1::]", "private"],
    ["[fd00::1]", "private"],
    ["[fc12:3456::1]", "private"],
    ["[fe80::1]", "link-local"],
    ["[ff02::1]", "reserved"],
    ["[2001:db8::1]", "reserved"],
    ["[2606:4700:4700::1111]", "public"],
    // Every form that embeds an IPv4 address is judged by that address.
    ["[::ffff:0:127.0.0.1]", "loopback"], // IPv4-translated ::ffff:0:0:0/96
    ["[::ffff:0:7f00:1]", "loopback"],
    ["[::ffff:0:a00:1]", "private"],
    ["[::127.0.0.1]", "loopback"], // IPv4-compatible
    ["[::a00:1]", "private"],
    ["[64:ff9b::127.0.0.1]", "loopback"], // NAT64 well-known prefix
    ["[64:ff9b::808:808]", "public"],
    ["[64:ff9b:1::a00:1]", "private"], // NAT64 local-use
    ["[2002:7f00:1::]", "loopback"], // 6to4
    ["[2002:c0a8:101::1]", "private"],
    ["[2001:0:7f00:1::]", "loopback"], // Teredo, server 127.0.0.1
    ["[2001:0:4136:e378:8000:63bf:f5ff:fffe]", "private"], // Teredo, client 10.0.0.1 (inverted)
    ["[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "reserved"], // Teredo with public ends: still not a host to fetch
    ["[2606:4700::5efe:7f00:1]", "loopback"], // ISATAP interface id
  ])("%s is %s", (host, kind) => {
    expect(classifyHost(host)).toBe(kind);
  });
});

describe("names", () => {
  it.each([
    ["localhost", "local-name"],
    ["LOCALHOST.", "local-name"],
    ["api.localhost", "local-name"],
    ["printer.local", "local-name"],
    ["metadata.google.internal", "local-name"],
    ["intranet", "local-name"],
    ["example.com", "public"],
    ["0xproject.org", "public"],
    ["1e100.net", "public"],
    ["127.0.0.1.nip.io", "loopback"],
    ["10-0-0-1.sslip.io", "loopback"],
    ["localtest.me", "loopback"],
    ["a.lvh.me", "loopback"],
    ["notnip.io", "public"],
  ])("%s is %s", (host, kind) => {
    expect(classifyHost(host)).toBe(kind);
  });
});

describe("checkDestination on parsed URLs", () => {
  it("refuses what the issue lists", () => {
    for (const u of [
      "http://127.0.0.1/",
      "http://10.0.0.1/",
      "http://[::1]/",
      "http://169.254.169.254/latest/meta-data/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://017700000001/",
      "http://localhost:8787/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:0:127.0.0.1]/",
      "http://127.0.0.1.nip.io/",
      "http://localtest.me/",
      "http://db.internal/",
    ])
      expect(verdict(u), u).toBe("forbidden");
  });

  it("refuses other schemes and credentials", () => {
    expect(verdict("file:///etc/passwd")).toBe("invalid_input");
    expect(verdict("ftp://example.com/")).toBe("invalid_input");
    expect(verdict("gopher://example.com/")).toBe("invalid_input");
    expect(verdict("https://user:pw@example.com/")).toBe("invalid_input");
  });

  it("lets public hosts through", () => {
    expect(verdict("https://example.com/page")).toBe("ok");
    expect(verdict("http://8.8.8.8/")).toBe("ok");
  });

  it("lets an allow-listed host:port through (tests only), and only that exact pair", () => {
    expect(verdict("http://127.0.0.1:9999/x", ["127.0.0.1:9999"])).toBe("ok");
    expect(verdict("http://127.0.0.1:9998/x", ["127.0.0.1:9999"])).toBe("forbidden");
    expect(verdict("http://10.0.0.1/", ["127.0.0.1:9999"])).toBe("forbidden");
  });
});

describe("resolved addresses", () => {
  it("refuses a name when any address it resolves to is not public", () => {
    expect(checkResolvedAddresses("a.example", ["93.184.216.34", "2606:2800:220:1::1"]).ok).toBe(true);
    for (const set of [["127.0.0.1"], ["93.184.216.34", "10.1.2.3"], ["::1"], ["::ffff:0:7f00:1"], ["garbage"]]) {
      const r = checkResolvedAddresses("a.example", set);
      expect(r.ok, set.join()).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("forbidden");
    }
  });
});
