/**
 * A candlestick + volume chart of an analysis' symbol, with the analysis drawn over it. The bars
 * come from `/api/market/bars`; the overlays from the analysis passed in (the one the model saw).
 * The box has a fixed height from the start and the chart library loads lazily.
 */
import type { Analysis, Bar } from "@contracts/analysis";
import { lazy, Suspense } from "react";
import { useBars } from "../hooks/use-bars";
import { chartDays } from "../lib/analysis-of";
import { useT } from "../lib/lang-store";

const PriceChartCanvas = lazy(() =>
  import("./chart/price-chart-canvas").then((m) => ({ default: m.PriceChartCanvas })),
);

/** Chart with its own bar loading. */
export function PriceChart({ analysis, height, bars }: { analysis: Analysis; height: number; bars?: Bar[] }) {
  const { t } = useT();
  const loaded = useBars(analysis.symbol, chartDays(analysis), bars !== undefined);
  const data = bars ?? loaded.data?.bars ?? null;
  return (
    <div className="chart-box" style={{ height }} role="img" aria-label={t("chartLabel", { symbol: analysis.symbol })}>
      {loaded.error && !bars ? (
        <p className="chart-placeholder inline-error">{t("chartFailed", { error: loaded.error })}</p>
      ) : data === null ? (
        <p className="chart-placeholder muted">{t("chartLoading")}</p>
      ) : (
        <Suspense fallback={<p className="chart-placeholder muted">{t("chartLoading")}</p>}>
          <PriceChartCanvas bars={data} analysis={analysis} height={height} />
        </Suspense>
      )}
    </div>
  );
}
