/** `update_portfolio`: changes the user's holdings; always asks the user first. */
import { z } from "zod";
import { Position, PortfolioChange } from "../../contracts/portfolio";
import { defineToolSpec } from "./define";

/** The `update_portfolio` tool. */
export const updatePortfolioSpec = defineToolSpec({
  name: "update_portfolio",
  title: { zh: "修改持仓", en: "Update portfolio" },
  description:
    "Changes the user's portfolio; the user approves first. action=add (code, shares, cost; adding to a holding averages the cost), update (code + shares/cost/buyDate/stop), remove (code; price = sale price, default the last close), set_cash (freeCash), delete_records (codes or recordIds). Cash follows trades: add takes shares × cost out, remove puts shares × price back; cash=record moves no cash (an uncovered add is recorded so).",
  input: PortfolioChange,
  output: z.object({
    success: z.boolean(),
    message: z.string(),
    freeCash: z.number(),
    positionCount: z.number().int(),
    positionsSummary: z.array(z.string()),
    changed: Position.nullable(),
    deletedRecords: z.number().int(),
    cashMove: z.object({ amount: z.number(), price: z.number() }).optional(),
  }),
  annotations: { readOnly: false, concurrencySafe: false, requiresApproval: true, background: false },
});
