/** Handler of `generate_ai_report`: queues the job and answers its task id at once. */
import type { ToolHandler } from "../bind";
import type { generateAiReportSpec } from "../specs/generate-ai-report";
import { submitBackground } from "./submit-background";

/** Starts a `generate_ai_report` task in the calling session. */
export const generateAiReportHandler: ToolHandler<typeof generateAiReportSpec> = (input, deps, ctx) =>
  submitBackground("generate_ai_report", input, deps, ctx);
