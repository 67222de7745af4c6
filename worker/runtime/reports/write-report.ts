/**
 * The research report by a language model (PARITY.md §2.4 Step 3): it reads compressed features —
 * never raw K-lines — places each stock in one of three camps, and may quote prices only from the
 * supplied closes. Any failure falls back to the engine's rule-based report, labelled as such.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText } from "ai";
import type { ReportFeatures } from "../../engine/report/report-features";
import { ruleReport } from "../../engine/report/rule-report";
import type { CampEntry } from "../../contracts/report";
import type { RoundUsage } from "../stream-round";
import { fromSdkUsage } from "../usage";

/** The report's instructions. */
export const REPORT_INSTRUCTIONS = [
  "You are a Wyckoff-method equity analyst writing a short research note in the user's language (Chinese by default).",
  "Place every stock in exactly one camp: 逻辑破产 (thesis broken: sell/avoid), 储备营地 (reserve camp: wait for a trigger), 起跳板 (springboard: actionable).",
  "Use only the supplied features. Quote prices ONLY from each stock's `close` and listed levels; never invent a price, date or news.",
  "For each stock: camp, the Wyckoff evidence (phase, events, triggers, volume), the stop, and what would change your mind.",
  "If the data is simulated, say so in the first line.",
].join("\n");

/** The written report. */
export interface WrittenReport {
  text: string;
  camps: CampEntry[];
  ruleBased: boolean;
  reason: string;
  /** Tokens the model spent (also when its answer was unusable); absent when no model was called. */
  usage?: RoundUsage;
}

/** Writes the report with `model`, or by the rules when `model` is undefined or fails. */
export async function writeReport(
  model: LanguageModelV4 | undefined,
  features: readonly ReportFeatures[],
  simulated: boolean,
  signal?: AbortSignal,
): Promise<WrittenReport> {
  const rules = ruleReport(features, simulated);
  if (!model)
    return { ...rules, ruleBased: true, reason: "offline model: rule-based report from the engine's evidence" };
  let usage: RoundUsage | undefined;
  try {
    const result = await generateText({
      model,
      system: REPORT_INSTRUCTIONS,
      messages: [
        {
          role: "user",
          content: `${simulated ? "SIMULATED DATA.\n" : ""}Features (JSON):\n${JSON.stringify(features)}\n\nEngine camps for reference: ${JSON.stringify(rules.camps.map((c) => ({ code: c.code, camp: c.camp })))}`,
        },
      ],
      maxRetries: 1,
      ...(signal ? { abortSignal: signal } : {}),
    });
    usage = fromSdkUsage(result.totalUsage ?? result.usage);
    if (result.text.trim() === "") throw new Error("empty report");
    return {
      text: result.text,
      camps: rules.camps,
      ruleBased: false,
      reason: "written by the model from compressed features",
      usage,
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ...rules,
      ruleBased: true,
      reason: `model failed (${why.slice(0, 160)}): rule-based report instead`,
      ...(usage ? { usage } : {}),
    };
  }
}
