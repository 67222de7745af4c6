/**
 * Health reasons in Chinese: every reason template the engine writes (read from health.ts itself, so
 * a new template without a translation fails here) comes out in Chinese with its numbers kept.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reasonText } from "../../../worker/contracts/reason-text";

const source = readFileSync(path.resolve(import.meta.dirname, "../../../worker/engine/health.ts"), "utf8");
/** The reason templates: the second argument of each add(points, "…") / add(points, `…`) and each reasons.push(`…`). */
const templates = [
  ...[...source.matchAll(/add\(\s*[^,]+,\s*(["`])((?:(?!\1).)+)\1/g)].map((m) => m[2] ?? ""),
  ...[...source.matchAll(/reasons\.push\(`([^`]+)`\)/g)].map((m) => m[1] ?? ""),
].filter((t) => !t.includes("points > 0"));
const sample = (t: string) => t.replace(/\$\{[^}]+\}/g, "RISK_OFF").replace(/RISK_OFF×/g, "0.62×");

describe("health reasons in the UI language", () => {
  it("finds the engine's templates", () => {
    expect(templates.length).toBeGreaterThan(15);
  });

  it.each(templates)("translates %s", (template) => {
    const reason = `+5 ${sample(template)}`;
    const zh = reasonText(reason, "zh");
    expect(zh).not.toBe(reason);
    expect(zh).toMatch(/^\+5 /);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(reasonText(reason, "en")).toBe(reason);
  });

  it("keeps the numbers and leaves an unknown reason as it came", () => {
    expect(reasonText("+24 trading range quality 0.81", "zh")).toBe("+24 交易区间质量 0.81");
    expect(reasonText("−15 upthrust in the last 60 bars", "zh")).toBe("−15 近 60 根 K 线内出现上冲（UT）");
    expect(reasonText("capped at 50: market regime CRASH", "zh")).toBe("上限 50 分：市场状态崩跌");
    expect(reasonText("entries blocked in regime RISK_OFF", "zh")).toBe("市场状态为避险，暂停开仓");
    expect(reasonText("something new", "zh")).toBe("something new");
  });
});
