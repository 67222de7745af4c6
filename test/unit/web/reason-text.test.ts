/**
 * Health reasons in Chinese: every reason template the engine writes (read from health.ts itself, so
 * a new template without a translation fails here) comes out in Chinese with its numbers kept.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reasonText, regimeReasonText, structureText } from "../../../worker/contracts/reason-text";

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

describe("market-regime reasons in the UI language", () => {
  const regime = readFileSync(path.resolve(import.meta.dirname, "../../../worker/engine/market-regime.ts"), "utf8");
  /** Every reason the regime writes: reasons.push(`…`) / ("…") and the initial reasons: ["…"]. */
  const written = [
    ...[...regime.matchAll(/reasons\.push\((["`])((?:(?!\1).)+)\1\)/g)].map((m) => m[2] ?? ""),
    ...[...regime.matchAll(/reasons: \["([^"]+)"\]/g)].map((m) => m[1] ?? ""),
  ];
  const fill = (t: string) => t.replace("${structure.toLowerCase()}", "bear").replace(/\$\{[^}]+\}/g, "-12");

  it("finds the regime's templates", () => {
    expect(written.length).toBeGreaterThan(7);
  });

  it.each(written)("translates %s", (template) => {
    const reason = fill(template);
    const zh = regimeReasonText(reason, "zh");
    expect(zh).not.toBe(reason);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(regimeReasonText(reason, "en")).toBe(reason);
  });

  it("names the index structure and keeps numbers", () => {
    expect(regimeReasonText("index structure transition", "zh")).toBe("指数结构过渡");
    expect(regimeReasonText("panic: index -3.4% on the day", "zh")).toBe("恐慌：指数当日 -3.4%");
    expect(structureText("BEAR", "zh")).toBe("空头");
    expect(structureText("BEAR", "en")).toBe("bear");
  });
});
