/** The settings page's usage view: tokens and cost per day and model over the last 30 days, with totals. */
import type { UsageReport } from "@contracts/api";
import { useEffect, useState } from "react";
import { useSettingsT } from "../hooks/use-settings-t";
import { api, errorMessage } from "../lib/api-client";
import { formatTokens, formatUsd } from "../lib/usage-format";

const DAYS = 30;

/** The usage section. */
export function UsageSummary() {
  const { t } = useSettingsT();
  const [report, setReport] = useState<UsageReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api.usage(DAYS).then(
      (r) => current && setReport(r),
      (e: unknown) => current && setError(errorMessage(e)),
    );
    return () => {
      current = false;
    };
  }, []);
  const cost = (n: number) => (n > 0 ? formatUsd(n) : "—");
  return (
    <section data-testid="usage-summary" aria-labelledby="usage-title">
      <h2 id="usage-title">{t("usageTitle", { days: DAYS })}</h2>
      {error && (
        <p className="inline-error" role="alert">
          {t("failedLoad", { error })}
        </p>
      )}
      {report && report.rows.length === 0 && <p className="muted">{t("usageNone")}</p>}
      {report && report.rows.length > 0 && (
        <div className="table-wrap">
          <table className="id-table usage-table">
            <thead>
              <tr>
                <th>{t("usageDay")}</th>
                <th>{t("usageModel")}</th>
                <th>{t("usageTurns")}</th>
                <th>{t("usageIn")}</th>
                <th>{t("usageOut")}</th>
                <th>{t("usageCacheRead")}</th>
                <th>{t("usageCacheWrite")}</th>
                <th>{t("usageCost")}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((r) => (
                <tr key={`${r.day}/${r.model}`}>
                  <td>{r.day}</td>
                  <td>
                    <code>{r.model}</code>
                  </td>
                  <td>{r.turns}</td>
                  <td>{formatTokens(r.inputTokens)}</td>
                  <td>{formatTokens(r.outputTokens)}</td>
                  <td>{formatTokens(r.cacheReadTokens)}</td>
                  <td>{formatTokens(r.cacheWriteTokens)}</td>
                  <td>{cost(r.costUsd)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-testid="usage-totals">
                <th colSpan={2}>{t("usageTotal")}</th>
                <td>{report.totals.turns}</td>
                <td>{formatTokens(report.totals.inputTokens)}</td>
                <td>{formatTokens(report.totals.outputTokens)}</td>
                <td>{formatTokens(report.totals.cacheReadTokens)}</td>
                <td>{formatTokens(report.totals.cacheWriteTokens)}</td>
                <td>{cost(report.totals.costUsd)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      {report && report.totals.costUsd === 0 && report.rows.length > 0 && (
        <p className="muted small">{t("usageNoPrices")}</p>
      )}
    </section>
  );
}
