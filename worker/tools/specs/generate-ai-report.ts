/** `generate_ai_report`: a three-camp research report on up to 10 stocks, written in the background. */
import { ReportInput } from "../../contracts/report";
import { BackgroundAccepted } from "../../contracts/task";
import { defineToolSpec } from "./define";

/** The `generate_ai_report` tool. */
export const generateAiReportSpec = defineToolSpec({
  name: "generate_ai_report",
  title: { zh: "AI 深度研报", en: "Research report" },
  description:
    "Writes a Wyckoff research report on ≤ 10 codes in the background, placing each in a camp: 起跳板 (springboard), 储备营地 (reserve), 逻辑破产 (broken). Reads compressed features, not raw bars; prices only from the data. Without an LLM it is a rule-based report, labelled so. Returns a task_id at once; the report arrives as a [SYSTEM NOTIFICATION].",
  input: ReportInput,
  output: BackgroundAccepted,
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: true },
});
