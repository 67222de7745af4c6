/** `wyckoff_diagnose`: the engine's structure reading of one symbol in WyckoffAgent's diagnose shape (MCP). */
import { z } from "zod";
import { PhaseName, Trigger } from "../../contracts/analysis";
import { defineToolSpec } from "./define";
import { CodeInput, MarketSource, SymbolBrief } from "./market-source";

/** Event labels (PARITY.md, WyckoffAgent `classify_wyckoff_event`). */
export const DiagnoseEventLabel = z.enum([
  "right_side_ignition",
  "accumulation_repair_resonance",
  "spring_reclaim",
  "lps_pullback_confirm",
  "volume_absorption",
  "sos_watch",
  "wyckoff_watch",
]);
export type DiagnoseEventLabel = z.infer<typeof DiagnoseEventLabel>;

/** The `wyckoff_diagnose` tool. */
export const wyckoffDiagnoseSpec = defineToolSpec({
  name: "wyckoff_diagnose",
  title: { zh: "威科夫结构诊断", en: "Wyckoff diagnose" },
  description:
    "One symbol's Wyckoff structure from the engine (as analyze_stock mode=diagnose, reshaped): trading range (support, resistance, mid, width %, support/resistance tests, quality 0-1), live triggers, stage (phase), and the current event (label, track, action, confidence 0-1, reasons, watch points). Observations, not orders. Relay the source and any simulated/stale flag.",
  input: z.object({ code: CodeInput }),
  output: z.object({
    code: z.string(),
    name: z.string(),
    symbol: SymbolBrief,
    asOf: z.string(),
    close: z.number(),
    trading_range: z
      .object({
        support: z.number(),
        resistance: z.number(),
        mid: z.number(),
        width_pct: z.number(),
        support_tests: z.number().int(),
        resistance_tests: z.number().int(),
        quality: z.number().min(0).max(1),
        from: z.string(),
        to: z.string(),
        mode: z.enum(["event", "pivot"]),
      })
      .nullable(),
    triggers: z.array(Trigger),
    stage: z.object({ phase: PhaseName, label: z.string(), since: z.string().nullable() }),
    event: z.object({
      event_id: z.string(),
      label: DiagnoseEventLabel,
      track: z.enum(["right_side", "left_side", "watch"]),
      action: z.string(),
      confidence: z.number().min(0).max(1),
      reasons: z.array(z.string()),
      watch_points: z.array(z.string()),
    }),
    health: z.object({ score: z.number(), grade: z.string() }),
    warnings: z.array(z.string()),
    source: MarketSource,
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
