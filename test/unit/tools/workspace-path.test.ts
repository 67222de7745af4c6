/** The workspace path jail: traversal in every spelling refused, plain relative paths kept as given. */
import { describe, expect, it } from "vitest";
import { checkWorkspacePath } from "../../../worker/lib/workspace-path";

function refused(raw: string, folder = false): boolean {
  return !checkWorkspacePath(raw, { folder }).ok;
}

describe("checkWorkspacePath", () => {
  it("keeps ordinary relative paths", () => {
    expect(checkWorkspacePath("notes.md")).toEqual({ ok: true, value: "notes.md" });
    expect(checkWorkspacePath("reports/2026/600519 茅台.csv")).toEqual({
      ok: true,
      value: "reports/2026/600519 茅台.csv",
    });
  });

  it.each([
    "../secret",
    "a/../../b",
    "a/..",
    "./a",
    "/etc/passwd",
    "~/x",
    "C:/x",
    "C:\\x",
    "a\\..\\b",
    "%2e%2e%2fsecret",
    "..%2Fsecret",
    "a%2f..%2f..%2fb",
    "a\u0000b",
    "a\nb",
    "a//b",
    "",
    " a",
    "x".repeat(257),
    "1/2/3/4/5/6/7/8/9",
  ])("refuses %j", (raw) => {
    expect(refused(raw)).toBe(true);
  });

  it("accepts folders for listing, with or without a trailing slash, and the root", () => {
    expect(checkWorkspacePath("", { folder: true })).toEqual({ ok: true, value: "" });
    expect(checkWorkspacePath("reports", { folder: true })).toEqual({ ok: true, value: "reports/" });
    expect(checkWorkspacePath("reports/", { folder: true })).toEqual({ ok: true, value: "reports/" });
    expect(refused("../", true)).toBe(true);
    expect(refused("/", false)).toBe(true);
  });
});
