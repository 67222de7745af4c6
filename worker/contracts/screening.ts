/**
 * The whole-market screening run (DOMAIN.md §1.11, §1.13 M; PARITY.md §2.2 `screen_stocks`): its
 * input, shared by the tool, the webhook and the cron, and its stored result with per-layer counts,
 * rejection reasons, trigger groups, top sectors and the symbols handed to a report.
 */
import { z } from "zod";
import { TriggerStatus, TriggerType } from "./analysis";
import { SyncCoverage } from "./market-sync";

/** Board filter: all, main board, ChiNext or STAR (aliases accepted: gem/创业板/主板/科创板/全部). */
export const ScreenBoard = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const s = v.trim().toLowerCase();
    const alias: Record<string, string> = {
      gem: "chinext",
      创业板: "chinext",
      主板: "main",
      科创板: "star",
      全部: "all",
    };
    return alias[s] ?? s;
  },
  z.enum(["all", "main", "chinext", "star"]),
);
export type ScreenBoard = z.infer<typeof ScreenBoard>;

/** Which market to screen: A-shares (the simulated market when MARKET_DATA=offline) or US stocks. */
export const ScreenMarket = z.enum(["cn", "us"]);
export type ScreenMarket = z.infer<typeof ScreenMarket>;

/** Input of a screening run. */
export const ScreenInput = z.object({
  board: ScreenBoard.default("all").describe("all | main | chinext | star"),
  market: ScreenMarket.default("cn").describe("cn (A-shares; simulated market offline) | us"),
  limit: z.number().int().min(1).max(30).default(12).describe("most symbols handed to a report"),
});
export type ScreenInput = z.infer<typeof ScreenInput>;

/** A symbol in a trigger group. */
export const ScreenPick = z.object({
  code: z.string(),
  name: z.string(),
  score: z.number(),
});
export type ScreenPick = z.infer<typeof ScreenPick>;

/** A candidate that reached L4, with the evidence a report reads. */
export const ScreenCandidate = z.object({
  code: z.string(),
  name: z.string(),
  industry: z.string().nullable(),
  board: z.string().nullable(),
  close: z.number(),
  channels: z.array(z.string()),
  strength: z.number(),
  rps50: z.number().nullable(),
  rps120: z.number().nullable(),
  triggers: z.array(
    z.object({
      type: TriggerType,
      date: z.string(),
      status: TriggerStatus,
      score: z.number(),
      reasons: z.array(z.string()),
    }),
  ),
  stop: z.number().nullable(),
  priority: z.number(),
  /** L5 verdict: `entry` (confirmed, regime allows), else why it only stays on the watch list. */
  verdict: z.enum(["entry", "watch"]),
  verdictReason: z.string(),
});
export type ScreenCandidate = z.infer<typeof ScreenCandidate>;

/** Per-layer counts (WyckoffAgent names, plus L4 and L5). */
export const ScreenSummary = z.object({
  total_scanned: z.number().int(),
  layer1_passed: z.number().int(),
  layer2_passed: z.number().int(),
  layer3_passed: z.number().int(),
  layer4_passed: z.number().int(),
  layer5_passed: z.number().int(),
});
export type ScreenSummary = z.infer<typeof ScreenSummary>;

/** The screening result as stored on the task and reported into the session. */
export const ScreeningResult = z.object({
  ok: z.boolean(),
  market: ScreenMarket,
  board: z.enum(["all", "main", "chinext", "star"]),
  /** Universe actually read: `SIM` (simulated), `CN` or `US`. */
  universe: z.string(),
  asOf: z.string().nullable(),
  simulated: z.boolean(),
  regime: z.object({ state: z.string(), reasons: z.array(z.string()), breadthAboveMa20Pct: z.number().nullable() }),
  summary: ScreenSummary,
  /** Rejections per layer: reason → count. */
  rejections: z.record(z.string(), z.record(z.string(), z.number().int())),
  trigger_groups: z.record(z.string(), z.array(ScreenPick)),
  top_sectors: z.array(z.object({ sector: z.string(), count: z.number().int(), strength: z.number() })),
  candidates: z.array(ScreenCandidate),
  symbols_for_report: z.array(z.string()),
  notes: z.array(z.string()),
  /** The live market's sync coverage the screening read (CN and US live; absent offline). */
  coverage: SyncCoverage.optional(),
});
export type ScreeningResult = z.infer<typeof ScreeningResult>;
