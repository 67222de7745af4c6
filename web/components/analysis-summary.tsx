/**
 * The purpose-built view of a Wyckoff analysis: phase, health with its reasons, trading range,
 * events, triggers, stops and targets, and the chart drawn from the same object.
 */
import type { Analysis } from "@contracts/analysis";
import { TRIGGER_WORDS, wordOf } from "@contracts/wyckoff-words";
import { phaseLabel, variantText } from "../lib/chart-overlays";
import { useT } from "../lib/lang-store";
import { reasonText } from "@contracts/reason-text";
import { analysisPath, navigate } from "../lib/router";
import type { StringKey } from "../lib/strings";
import { PriceChart } from "./price-chart";

/** A long position's stop, marked when the last close is already at or under it. */
function stopText(stop: number | null, close: number, hit: string): string {
  return stop !== null && stop >= close ? `${fmt(stop)} (${hit})` : fmt(stop);
}

function fmt(n: number | null | undefined, digits = 2): string {
  return typeof n === "number" && Number.isFinite(n) ? n.toFixed(digits) : "—";
}

function sourceLine(output: unknown, t: (key: StringKey) => string): string | null {
  if (typeof output !== "object" || output === null || !("source" in output)) return null;
  const src = output.source;
  if (typeof src !== "object" || src === null) return null;
  const get = (k: string) => (k in src ? (src as Record<string, unknown>)[k] : undefined);
  const flags = [get("simulated") === true ? t("srcSimulated") : "", get("stale") === true ? t("srcStale") : ""].filter(
    Boolean,
  );
  // provider names (eastmoney, yahoo…) are names; the bundled data is a word in the UI's language
  const source = get("source") === "offline" ? t("offline") : String(get("source") ?? "?");
  return `${source} · ${String(get("asOf") ?? "")}${flags.length ? ` · ${flags.join(", ")}` : ""}`;
}

/** An analysis, as a card body. `chart` false leaves the chart out (the full page draws its own). */
export function AnalysisSummary({
  analysis: a,
  output,
  chart = true,
}: {
  analysis: Analysis;
  output?: unknown;
  chart?: boolean;
}) {
  const { t, lang } = useT();
  const source = sourceLine(output, t);
  const gradeKey = `healthGrade_${a.health.grade}` as StringKey;
  return (
    <div className="analysis" data-testid="analysis">
      <div className="analysis-head">
        <div>
          <span className="label">{t("phase")}</span>
          <strong className="phase-name" data-testid="phase">
            {phaseLabel(a.phase.name, lang)}
          </strong>
          <span className="muted">
            {a.phase.since ? ` ${t("since")} ${a.phase.since}` : ""} · {t("asOf")} {a.asOf}
          </span>
        </div>
        <div
          className={`health-score health-score--${a.health.grade}`}
          data-testid="health-score"
          data-score={Math.round(a.health.score)}
          data-grade={a.health.grade}
        >
          <span className="label">{t("health")}</span>
          <meter min={0} max={100} low={40} high={70} optimum={100} value={a.health.score} aria-label={t("health")} />
          <strong>{Math.round(a.health.score)}</strong> <span>{t(gradeKey)}</span>
        </div>
      </div>
      {source && <p className="muted small">{source}</p>}
      {chart && (
        <>
          <PriceChart analysis={a} height={260} />
          <p className="chart-link">
            <a
              href={analysisPath(a.symbol)}
              onClick={(e) => {
                e.preventDefault();
                navigate(analysisPath(a.symbol));
              }}
            >
              {t("openChart")} →
            </a>
          </p>
        </>
      )}
      {a.health.reasons.length > 0 && (
        <ul className="reasons" data-testid="health-reasons">
          {a.health.reasons.map((r) => (
            <li key={r}>{reasonText(r, lang)}</li>
          ))}
        </ul>
      )}
      <dl className="facts">
        <div>
          <dt>{t("tradingRange")}</dt>
          <dd>
            {a.tradingRange
              ? `${fmt(a.tradingRange.support)} – ${fmt(a.tradingRange.resistance)} (${a.tradingRange.from} → ${a.tradingRange.to}, ${t("quality")} ${fmt(a.tradingRange.quality)})`
              : "—"}
          </dd>
        </div>
        <div>
          <dt>{t("stops")}</dt>
          <dd>
            {t("stopStructural")} {stopText(a.stops.structural, a.indicators.close, t("stopAboveClose"))} ·{" "}
            {t("stopTrailing")} {stopText(a.stops.trailing, a.indicators.close, t("stopAboveClose"))}
          </dd>
        </div>
        <div>
          <dt>{t("targets")}</dt>
          <dd>
            P&F {fmt(a.targets.pointAndFigure?.conservative)}
            {a.targets.pointAndFigure?.aggressive ? `–${fmt(a.targets.pointAndFigure.aggressive)}` : ""} · MM{" "}
            {fmt(a.targets.measuredMove)}
          </dd>
        </div>
      </dl>
      <h4>{t("events")}</h4>
      {a.events.length === 0 ? (
        <p className="muted">{t("noEvents")}</p>
      ) : (
        <div className="table-wrap">
          <table className="events-table" data-testid="events-table">
            <thead>
              <tr>
                <th scope="col">{t("events")}</th>
                <th scope="col">{t("date")}</th>
                <th scope="col">{t("price")}</th>
                <th scope="col">{t("volume")}</th>
                <th scope="col">{t("confidence")}</th>
              </tr>
            </thead>
            <tbody>
              {a.events.map((e) => (
                <tr key={`${e.type}-${e.date}`} title={e.reasons.join("; ")}>
                  <td>
                    <span className="event-tag">{e.type}</span>
                    {e.variant ? ` ${variantText(e.variant, lang)}` : ""}
                  </td>
                  <td>{e.date}</td>
                  <td>{fmt(e.price)}</td>
                  <td>{fmt(e.volumeRatio, 1)}</td>
                  <td>{Math.round(e.confidence * 100)}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {a.triggers.length > 0 && (
        <>
          <h4>{t("triggers")}</h4>
          <ul className="triggers">
            {a.triggers.map((tr) => (
              <li
                key={`${tr.type}-${tr.date}`}
                className={`trigger trigger--${tr.status}`}
                title={tr.reasons.join("; ")}
              >
                <strong>{wordOf(TRIGGER_WORDS, tr.type, lang)}</strong> {tr.date} · {t(`trig_${tr.status}`)}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
