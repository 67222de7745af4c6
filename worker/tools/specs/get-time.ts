/** `get_time`: the current time on a market's exchange clock and whether it is trading. */
import { z } from "zod";
import { defineToolSpec } from "./define";

/** Exchange clocks known to the tool. */
export const ClockMarket = z.enum(["cn", "us"]);

/** Trading sessions of one day on an exchange clock. */
export const MarketSession = z.enum([
  "pre_open",
  "morning",
  "lunch_break",
  "afternoon",
  "regular",
  "after_close",
  "weekend",
]);

/** The `get_time` tool. */
export const getTimeSpec = defineToolSpec({
  name: "get_time",
  title: { zh: "市场时钟", en: "Market clock" },
  description:
    "Current date and time on an exchange clock (cn = Shanghai/Shenzhen, Asia/Shanghai; us = NYSE/Nasdaq, America/New_York) and which trading session it is. Use before reasoning about 'today', the latest bar or whether the market is open. Exchange holidays are not known: a weekday is treated as a trading day.",
  input: z.object({ market: ClockMarket.default("cn").describe("cn or us") }),
  output: z.object({
    market: ClockMarket,
    timezone: z.string(),
    utc: z.string(),
    localDate: z.string(),
    localTime: z.string(),
    weekday: z.string(),
    session: MarketSession,
    isTradingHours: z.boolean(),
    note: z.string(),
  }),
  annotations: { readOnly: true, concurrencySafe: true, requiresApproval: false, background: false },
});
