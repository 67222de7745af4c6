import { describe, expect, it } from "vitest";
import { formatId, isWellFormedId } from "../../../worker/lib/ids";
import { createLogger, type LogLevel } from "../../../worker/lib/log";
import { err, ok } from "../../../worker/lib/result";
import { isLoopback } from "../../../worker/lib/net";

describe("ids", () => {
  it("formats 16 bytes as 26 base32 characters that round-trip the well-formedness check", () => {
    const id = formatId(new Uint8Array(16).fill(255), "s_");
    expect(id).toMatch(/^s_[0-9a-z]{26}$/);
    expect(isWellFormedId(id, "s_")).toBe(true);
    expect(formatId(new Uint8Array(16))).toBe("0".repeat(26));
  });

  it("rejects ids with the wrong prefix, length or alphabet", () => {
    expect(isWellFormedId("t_" + "0".repeat(26), "s_")).toBe(false);
    expect(isWellFormedId("s_" + "0".repeat(25), "s_")).toBe(false);
    expect(isWellFormedId("s_" + "u".repeat(26), "s_")).toBe(false);
    expect(isWellFormedId("s_../../etc/passwd", "s_")).toBe(false);
  });
});

describe("logger", () => {
  it("writes one JSON line per event with base and child fields and flattens errors", () => {
    const lines: [LogLevel, string][] = [];
    const log = createLogger((level, line) => lines.push([level, line]), { requestId: "r1" }).child({
      sessionId: "s1",
    });
    log.error("boom", { error: new Error("bad"), n: 1 });
    expect(lines).toHaveLength(1);
    const [level, line] = lines[0] ?? ["info", "{}"];
    expect(level).toBe("error");
    expect(JSON.parse(line)).toMatchObject({
      level: "error",
      event: "boom",
      requestId: "r1",
      sessionId: "s1",
      n: 1,
      error: { message: "bad" },
    });
  });
});

describe("result", () => {
  it("wraps values and errors", () => {
    expect(ok(1)).toEqual({ ok: true, value: 1 });
    expect(err("not_found", "x")).toEqual({ ok: false, error: { code: "not_found", message: "x" } });
  });
});

describe("isLoopback", () => {
  it("accepts 127/8, ::1 and mapped loopback only", () => {
    expect(["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"].every(isLoopback)).toBe(true);
    expect(["10.0.0.1", "203.0.113.9", "::ffff:10.0.0.1", "1270.0.0.1"].some(isLoopback)).toBe(false);
  });

  it("parses the whole address: a 127. prefix alone is not loopback", () => {
    for (const ip of [
      "127.evil",
      "127.",
      "127.0.0.1.example.com",
      "127.0.0.256",
      "0177.0.0.1",
      "127.1",
      "::ffff:127.evil",
      "",
    ])
      expect(isLoopback(ip), ip).toBe(false);
    expect(isLoopback("[::1]")).toBe(true);
    expect(isLoopback("::ffff:7f00:1")).toBe(true);
  });
});

describe("size budget", () => {
  it("splits on byte budgets without breaking characters, and joins back to the same text", async () => {
    const { splitToBudget, utf8Length, excerpt, boundText } = await import("../../../worker/lib/size-budget");
    const text = "a想😀".repeat(100_000); // 1 + 3 + 4 bytes
    expect(utf8Length(text)).toBe(800_000);
    const pieces = splitToBudget(text, 64 * 1024);
    expect(pieces.join("")).toBe(text);
    expect(pieces.every((p) => utf8Length(p) <= 64 * 1024)).toBe(true);
    expect(pieces.every((p) => !/[\ud800-\udbff]$/.test(p))).toBe(true);
    expect(splitToBudget("small")).toEqual(["small"]);
    expect(excerpt("x".repeat(3_000_000), 300)).toMatch(/^x{300}… \[2,999,700 more characters\]$/);
    expect(utf8Length(boundText("想".repeat(1_000_000), 256 * 1024))).toBeLessThanOrEqual(256 * 1024);
  });
});
