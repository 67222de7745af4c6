/**
 * A candlestick + volume chart of an analysis' symbol, with the analysis drawn over it. The bars
 * come from `/api/market/bars`; the overlays from the analysis passed in (the one the model saw).
 * The box has a fixed height from the start; the chart library loads lazily, fetched as soon as the
 * page is idle so a chart rarely waits for it. With `controls`: daily/weekly, MA and volume toggles.
 */
import type { Analysis, Bar } from "@contracts/analysis";
import { lazy, Suspense, useState } from "react";
import { useBars } from "../hooks/use-bars";
import { chartDays } from "../lib/analysis-of";
import { useDeskT } from "../lib/desk-strings";
import { useT } from "../lib/lang-store";
import { useDark } from "../lib/theme-store";

const loadCanvas = () => import("./chart/price-chart-canvas");
/** Starts loading the chart library now (the entry does it for a chart page). */
export const preloadChart = (): void => void loadCanvas();
const PriceChartCanvas = lazy(() => loadCanvas().then((m) => ({ default: m.PriceChartCanvas })));
if (typeof requestIdleCallback === "function") requestIdleCallback(() => void loadCanvas());
else setTimeout(() => void loadCanvas(), 500);

/** Chart with its own bar loading. */
export function PriceChart({
  analysis,
  height,
  bars,
  controls = false,
  end,
}: {
  analysis: Analysis;
  height: number;
  bars?: Bar[];
  controls?: boolean;
  /** The analysis is of history: its bars end at this date (YYYY-MM-DD). */
  end?: string;
}) {
  const { t } = useT();
  const desk = useDeskT();
  const dark = useDark();
  const [interval, setInterval] = useState<"daily" | "weekly">("daily");
  const [showMA, setShowMA] = useState(true);
  const [showVolume, setShowVolume] = useState(true);
  const loaded = useBars(analysis.symbol, chartDays(analysis), bars !== undefined, end);
  const data = bars ?? loaded.data?.bars ?? null;
  return (
    <div className="chart-frame">
      {controls && (
        <div className="chart-controls" role="toolbar" aria-label={t("chartLabel", { symbol: analysis.symbol })}>
          <div className="segmented" role="group">
            {(["daily", "weekly"] as const).map((i) => (
              <button
                key={i}
                type="button"
                className="small"
                aria-pressed={interval === i}
                data-testid={`chart-${i}`}
                onClick={() => setInterval(i)}
              >
                {desk.t(i)}
              </button>
            ))}
          </div>
          <label className="small">
            <input
              type="checkbox"
              checked={showMA}
              data-testid="toggle-ma"
              onChange={(e) => setShowMA(e.target.checked)}
            />{" "}
            {desk.t("movingAverages")} 20/60
          </label>
          <label className="small">
            <input
              type="checkbox"
              checked={showVolume}
              data-testid="toggle-volume"
              onChange={(e) => setShowVolume(e.target.checked)}
            />{" "}
            {desk.t("volume")}
          </label>
        </div>
      )}
      <div
        className="chart-box"
        style={{ height }}
        role="img"
        aria-label={t("chartLabel", { symbol: analysis.symbol })}
      >
        {loaded.error && !bars ? (
          <p className="chart-placeholder inline-error">{t("chartFailed", { error: loaded.error })}</p>
        ) : data === null ? (
          <p className="chart-placeholder muted">{t("chartLoading")}</p>
        ) : (
          <Suspense fallback={<p className="chart-placeholder muted">{t("chartLoading")}</p>}>
            <PriceChartCanvas
              bars={data}
              analysis={analysis}
              height={height}
              view={{ interval, showMA, showVolume, dark }}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}
