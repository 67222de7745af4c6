/**
 * Portfolio shapes shared by the `portfolio` / `update_portfolio` tools, the portfolio routes and the
 * reading room: positions (code, name, shares, cost, buy date, stop), free cash and trade records.
 * `PortfolioChange` is the one validated description of an edit, whoever asks for it.
 */
import { z } from "zod";

/** Largest number of positions a portfolio holds. */
export const MAX_POSITIONS = 200;

function isRealDate(iso: string): boolean {
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
}

/** A buy date: `YYYY-MM-DD` or `YYYYMMDD`, normalised to `YYYY-MM-DD`. */
export const BuyDate = z
  .string()
  .trim()
  .regex(/^\d{4}-?\d{2}-?\d{2}$/, "buy date must be YYYY-MM-DD or YYYYMMDD")
  .transform((s) => (s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}` : s))
  .refine(isRealDate, "buy date is not a calendar date");

/** A held position. `code` is the universe's symbol id (`SH.600519`, `US.AAPL`, `SIM.0001`). */
export const Position = z.object({
  code: z.string(),
  name: z.string(),
  shares: z.number(),
  cost: z.number(),
  buyDate: z.string().nullable(),
  stop: z.number().nullable(),
  updatedAt: z.string(),
});
export type Position = z.infer<typeof Position>;

/** A user's portfolio. */
export const Portfolio = z.object({
  freeCash: z.number(),
  positionCount: z.number().int(),
  positions: z.array(Position),
  updatedAt: z.string().nullable(),
});
export type Portfolio = z.infer<typeof Portfolio>;

/** Kinds of trade records. */
export const TradeAction = z.enum(["add", "update", "remove", "set_cash", "import"]);
export type TradeAction = z.infer<typeof TradeAction>;

/** One trade record (what changed, when). */
export const TradeRecord = z.object({
  id: z.string(),
  action: TradeAction,
  code: z.string().nullable(),
  name: z.string().nullable(),
  shares: z.number().nullable(),
  price: z.number().nullable(),
  amount: z.number().nullable(),
  note: z.string().nullable(),
  at: z.string(),
});
export type TradeRecord = z.infer<typeof TradeRecord>;

const Code = z.string().trim().min(1).max(40);

/** Field → actions that need it. */
const REQUIRED: Record<string, readonly string[]> = {
  code: ["add", "update", "remove"],
  shares: ["add"],
  cost: ["add"],
  freeCash: ["set_cash"],
};

/**
 * One portfolio edit. `add` buys into a position (a second add averages the cost); `update` changes
 * fields of a held position; `remove` closes it; `set_cash` sets free cash; `delete_records` deletes
 * trade records by id or by code. Missing fields answer with the field's name.
 *
 * Cash follows trades (`cash`): a buy (`add`) takes shares × cost out of free cash and a sale
 * (`remove`) puts shares × price back (price: the one given, else the last close, else the cost).
 * `cash: "record"` records a holding bought or sold elsewhere and leaves cash alone. Unstated, a buy
 * that free cash does not cover is recorded the same way (a holding added without the money for it,
 * e.g. before cash was ever set); `cash: "trade"` refuses it instead. `update` corrects fields and
 * never moves cash.
 */
export const PortfolioChange = z
  .object({
    action: z.enum(["add", "update", "remove", "set_cash", "delete_records"]),
    code: Code.optional().describe("symbol code or name, checked against the universe"),
    name: z.string().trim().min(1).max(60).optional().describe("the symbol's name; must match the code"),
    shares: z.number().positive().max(1e12).optional().describe("add: shares bought; update: new share count"),
    cost: z.number().positive().max(1e9).optional().describe("cost per share"),
    buyDate: BuyDate.optional().describe("YYYY-MM-DD or YYYYMMDD"),
    stop: z.number().nonnegative().max(1e9).nullable().optional().describe("stop price; null clears it"),
    freeCash: z.number().nonnegative().max(1e15).optional().describe("set_cash: the new free cash"),
    price: z.number().positive().max(1e9).optional().describe("remove: sale price per share (default the last close)"),
    cash: z
      .enum(["trade", "record"])
      .optional()
      .describe(
        "add/remove: trade moves free cash (a buy takes shares × cost out, a sale puts shares × price back); record leaves cash alone. Default: trade, or record when free cash does not cover a buy",
      ),
    codes: z.array(Code).min(1).max(MAX_POSITIONS).optional().describe("delete_records: records of these codes"),
    recordIds: z.array(z.string().max(64)).min(1).max(500).optional().describe("delete_records: these record ids"),
    note: z.string().max(200).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const [field, actions] of Object.entries(REQUIRED)) {
      if (actions.includes(c.action) && c[field as keyof typeof c] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `required for action ${c.action}` });
    }
    if (c.price !== undefined && c.action !== "remove")
      ctx.addIssue({
        code: "custom",
        path: ["price"],
        message: "price is the sale price of remove (a buy's price is cost)",
      });
    if (c.cash !== undefined && c.action !== "add" && c.action !== "remove")
      ctx.addIssue({ code: "custom", path: ["cash"], message: "cash applies to add and remove only" });
    if (c.action === "delete_records" && !c.codes && !c.recordIds)
      ctx.addIssue({ code: "custom", path: ["codes"], message: "delete_records needs codes or recordIds" });
  });
export type PortfolioChange = z.infer<typeof PortfolioChange>;

/** One holding at its latest price (`price` null when no price could be read: `error` says why). */
export const PositionValue = z.object({
  code: z.string(),
  price: z.number().nullable(),
  priceDate: z.string().nullable(),
  value: z.number().nullable(),
  pnl: z.number().nullable(),
  pnlPct: z.number().nullable(),
  simulated: z.boolean(),
  stale: z.boolean(),
  error: z.string().optional(),
});
export type PositionValue = z.infer<typeof PositionValue>;

/** The portfolio at its latest prices: per holding and totals (holdings without a price count at cost). */
export const PortfolioValuation = z.object({
  positions: z.array(PositionValue),
  marketValue: z.number(),
  costBasis: z.number(),
  pnl: z.number(),
  pnlPct: z.number().nullable(),
  cash: z.number(),
  totalValue: z.number(),
});
export type PortfolioValuation = z.infer<typeof PortfolioValuation>;

/** `GET /api/portfolio`. */
export const PortfolioView = z.object({
  portfolio: Portfolio,
  trades: z.array(TradeRecord),
  valuation: PortfolioValuation.optional(),
});
export type PortfolioView = z.infer<typeof PortfolioView>;

/** `POST /api/portfolio/preview` and `/import?dryRun`: what a change would do, nothing written. */
export const PortfolioPreview = z.object({
  before: Portfolio,
  after: Portfolio,
  summary: z.string(),
  /** How the change moved free cash (negative: taken out), and at what price per share; absent when it did not. */
  cashMove: z.object({ amount: z.number(), price: z.number() }).optional(),
});
export type PortfolioPreview = z.infer<typeof PortfolioPreview>;

/** `POST /api/portfolio/import` body: a CSV of positions (header `code,name,shares,cost,buy_date,stop`). */
export const PortfolioImportBody = z
  .object({
    csv: z.string().min(1).max(200_000),
    mode: z.enum(["replace", "merge"]).default("merge"),
    dryRun: z.boolean().default(false),
  })
  .strict();
export type PortfolioImportBody = z.infer<typeof PortfolioImportBody>;
