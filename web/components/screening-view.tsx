/**
 * A screening result as research: the funnel's per-layer counts, the regime, top sectors (count and the
 * median strength they are ranked by) and the candidate table (triggers, sector, strength, verdict) with
 * a link to each candidate's chart.
 */
import type { ScreeningResult } from "@contracts/screening";
import { caveatText, verdictReasonText } from "@contracts/server-text";
import { useDeskT } from "../lib/desk-strings";
import { regimeText } from "../lib/regime-text";
import { analysisPath, navigate } from "../lib/router";

const LAYERS = [
  ["total_scanned", "L0"],
  ["layer1_passed", "L1"],
  ["layer2_passed", "L2"],
  ["layer3_passed", "L3"],
  ["layer4_passed", "L4"],
  ["layer5_passed", "L5"],
] as const;

/** A link to a symbol's chart page (in-app navigation). */
export function ChartLink({ symbol, label }: { symbol: string; label?: string }) {
  const href = analysisPath(symbol);
  return (
    <a
      href={href}
      data-testid="chart-link"
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {label ?? symbol}
    </a>
  );
}

/** The screening view. */
export function ScreeningView({ result }: { result: ScreeningResult }) {
  const { t, f, lang } = useDeskT();
  const max = Math.max(1, result.summary.total_scanned);
  return (
    <section className="result-view" data-testid="screening-view" aria-label={t("screeningTitle")}>
      <p className="muted small">
        {result.universe}
        {result.simulated ? ` · ${lang === "zh" ? "模拟" : "simulated"}` : ""}
        {result.asOf ? ` · ${f.date(result.asOf)}` : ""} · {regimeText(result.regime.state, lang)}
      </p>
      <h3>{t("layerCounts")}</h3>
      <table className="data-table layer-table" data-testid="layer-table">
        <thead>
          <tr>
            <th scope="col">{t("layer")}</th>
            <th scope="col">{t("count")}</th>
            <th scope="col" aria-hidden="true" />
          </tr>
        </thead>
        <tbody>
          {LAYERS.map(([field, label]) => (
            <tr key={field}>
              <th scope="row">{label}</th>
              <td className="num">{f.num(result.summary[field], 0)}</td>
              <td className="bar-cell" aria-hidden="true">
                <span className="bar" style={{ width: `${(100 * result.summary[field]) / max}%` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.top_sectors.length > 0 && (
        <p className="small" data-testid="top-sectors">
          <strong>
            {t("sector")}
            {lang === "zh" ? "：" : ":"}
          </strong>
          {lang === "zh" ? "" : " "}
          {result.top_sectors
            .map((s) => t("sectorStanding", { sector: s.sector, n: f.num(s.count, 0), strength: f.num(s.strength, 2) }))
            .join(" · ")}
        </p>
      )}
      <h3>{t("candidates")}</h3>
      {result.candidates.length === 0 ? (
        <p className="muted">{t("noCandidates")}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="candidate-table">
            <thead>
              <tr>
                <th scope="col">{t("symbol")}</th>
                <th scope="col">{t("name")}</th>
                <th scope="col">{t("sector")}</th>
                <th scope="col">{t("triggers")}</th>
                <th scope="col">{t("score")}</th>
                <th scope="col">L5</th>
              </tr>
            </thead>
            <tbody>
              {result.candidates.map((c) => (
                <tr key={c.code} data-testid="candidate-row">
                  <td>
                    <ChartLink symbol={c.code} />
                  </td>
                  <td>{c.name}</td>
                  <td>{c.industry ?? "—"}</td>
                  <td>
                    {c.triggers.map((tr) => `${tr.type}${tr.status === "confirmed" ? "✓" : "…"}`).join(" ") || "—"}
                  </td>
                  <td className="num">{f.num(c.strength, 1)}</td>
                  <td title={verdictReasonText(c.verdictReason, lang)}>
                    {t(c.verdict === "entry" ? "verdictEntry" : "verdictWatch")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.notes.length > 0 && (
        <ul className="muted small">
          {result.notes.map((n) => (
            <li key={n}>{caveatText(n, lang)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
