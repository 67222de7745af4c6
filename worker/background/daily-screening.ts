/**
 * The post-close daily screening (Cron Trigger): when `DAILY_SCREENING` names a market, one whole-
 * market screening per market and calendar day (idempotency key `cron:<market>:<date>`, so a
 * repeated trigger queues nothing), owned by the local owner and reported into no session.
 */
import { LOCAL_OWNER } from "../contracts/identity";
import type { Logger } from "../lib/log";
import type { BackgroundTasks } from "../ports/background";

/** Starts today's screening unless the setting is off; returns the task id or null. */
export async function startDailyScreening(o: {
  setting: "off" | "cn" | "us";
  port: BackgroundTasks;
  now: number;
  log: Logger;
}): Promise<string | null> {
  if (o.setting === "off") {
    o.log.info("daily_screening_off");
    return null;
  }
  const day = new Date(o.now).toISOString().slice(0, 10);
  const submitted = await o.port.submit({
    kind: "screen_stocks",
    input: { board: "all", market: o.setting, limit: 12 },
    ownerId: LOCAL_OWNER,
    sessionId: null,
    idempotencyKey: `cron:${o.setting}:${day}`,
  });
  if (!submitted.ok) {
    o.log.warn("daily_screening_refused", { error: submitted.error });
    return null;
  }
  const { task, created } = submitted.value;
  o.log.info("daily_screening", { taskId: task.id, created, day });
  return task.id;
}
