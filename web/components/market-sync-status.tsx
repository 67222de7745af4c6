/** The live market sync's status line (live deployments only): coverage, as-of date, last run, failures. */
import type { Health } from "@contracts/api";
import type { SyncStatus } from "@contracts/market-sync";
import { useEffect, useState } from "react";
import { api } from "../lib/api-client";
import { localeOf } from "../lib/desk-strings";
import { useT } from "../lib/lang-store";
import { syncLine } from "../lib/sync-line";

/** Refreshes every 5 minutes while the page is open (a sync runs once a day). */
const REFRESH_MS = 5 * 60_000;

/** Nothing offline; otherwise one line under the header. */
export function MarketSyncStatus({ health }: { health: Health | null }) {
  const { t, lang } = useT();
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const live = health?.marketData === "live";
  useEffect(() => {
    if (!live) return;
    let stop = false;
    const load = () =>
      void api
        .marketSync()
        .then((s) => !stop && setStatus(s))
        .catch(() => {
          // The line is informational: a failed read leaves the last one shown.
        });
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [live]);
  if (!live || !status) return null;
  const line = syncLine(status, t, localeOf(lang));
  if (!line) return null;
  return (
    <p className={`sync-status sync-status-${line.tone}`} role="status" data-testid="market-sync-status">
      {line.text}
    </p>
  );
}
