/** The screening view's regime line in the reader's language. */
import { describe, expect, it } from "vitest";
import { regimeText } from "../../../web/lib/regime-text";

describe("regimeText", () => {
  it("says each engine state in Chinese and in English", () => {
    expect(regimeText("CAUTION", "zh")).toBe("大盘：谨慎");
    expect(regimeText("REPAIR_CONFIRMED", "zh")).toBe("大盘：修复确认");
    expect(regimeText("RISK_OFF", "en")).toBe("regime: risk-off");
  });

  it("shows a state it does not know as it came", () => {
    expect(regimeText("SIDEWAYS", "zh")).toBe("大盘：SIDEWAYS");
  });
});
