/**
 * The rule-based research report: the three camps written from the engine's evidence only (prices
 * only from the supplied closes), labelled as rule-based so nobody mistakes it for model judgement.
 */
import type { Camp, CampEntry } from "../../contracts/report";
import { campOf, type ReportFeatures } from "./report-features";

/** Label printed at the top of every rule-based report. */
export const RULE_REPORT_LABEL =
  "规则报告 / Rule-based report — written by the Wyckoff engine's rules from its evidence, not by a language model.";

const ORDER: Camp[] = ["起跳板", "储备营地", "逻辑破产"];
const CAMP_EN: Record<Camp, string> = { 起跳板: "springboard", 储备营地: "reserve camp", 逻辑破产: "thesis broken" };

/** Places each stock and writes the report. */
export function ruleReport(
  features: readonly ReportFeatures[],
  simulated: boolean,
): { text: string; camps: CampEntry[] } {
  const camps: CampEntry[] = features.map((f) => {
    const { camp, reasons } = campOf(f);
    return { code: f.code, name: f.name, close: f.close, asOf: f.asOf, camp, reasons };
  });
  const lines = [`# ${RULE_REPORT_LABEL}`];
  if (simulated) lines.push("", "⚠️ 模拟数据 / simulated market data — not real securities.");
  for (const camp of ORDER) {
    const members = camps.filter((c) => c.camp === camp);
    if (members.length === 0) continue;
    lines.push("", `## ${camp} (${CAMP_EN[camp]})`);
    for (const c of members) {
      const f = features.find((x) => x.code === c.code);
      const stop = f?.stops.structural ?? f?.stops.trailing;
      lines.push(
        `- **${c.code} ${c.name}** close ${c.close} (as of ${c.asOf}), phase ${f?.phase ?? "?"}, health ${f?.health.score ?? "?"}/100` +
          `${stop ? `, stop ${stop}` : ""}: ${c.reasons.join("; ")}`,
      );
    }
  }
  return { text: lines.join("\n"), camps };
}
