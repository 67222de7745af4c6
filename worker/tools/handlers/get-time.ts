/** Handler of `get_time`: exchange-local clock and session from the injected clock. */
import { ok } from "../../lib/result";
import type { ToolHandler } from "../bind";
import type { getTimeSpec } from "../specs/get-time";

const ZONES = { cn: "Asia/Shanghai", us: "America/New_York" } as const;

function localParts(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    weekday: "long",
    hourCycle: "h23",
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    time: `${get("hour")}:${get("minute")}:${get("second")}`,
    weekday: get("weekday"),
    minutes: Number(get("hour")) * 60 + Number(get("minute")),
  };
}

/** Session by minutes since local midnight. CN: 9:15 call auction, 9:30–11:30, 13:00–15:00. US: 9:30–16:00. */
export function sessionAt(market: "cn" | "us", minutes: number, weekday: string) {
  if (weekday === "Saturday" || weekday === "Sunday") return "weekend" as const;
  if (market === "cn") {
    if (minutes < 9 * 60 + 30) return "pre_open" as const;
    if (minutes < 11 * 60 + 30) return "morning" as const;
    if (minutes < 13 * 60) return "lunch_break" as const;
    if (minutes < 15 * 60) return "afternoon" as const;
    return "after_close" as const;
  }
  if (minutes < 9 * 60 + 30) return "pre_open" as const;
  if (minutes < 16 * 60) return "regular" as const;
  return "after_close" as const;
}

/** Reads the injected clock; never the system time directly. */
export const getTimeHandler: ToolHandler<typeof getTimeSpec> = async (input, deps) => {
  const now = deps.clock();
  const timezone = ZONES[input.market];
  const local = localParts(now, timezone);
  const session = sessionAt(input.market, local.minutes, local.weekday);
  return ok({
    market: input.market,
    timezone,
    utc: new Date(now).toISOString(),
    localDate: local.date,
    localTime: local.time,
    weekday: local.weekday,
    session,
    isTradingHours: session === "morning" || session === "afternoon" || session === "regular",
    note: "Exchange holidays are not modelled: a weekday counts as a trading day.",
  });
};
