/**
 * The chart itself (lazy chunk: lightweight-charts): candles (daily or weekly), volume in its own
 * pane, MA20/MA60, event markers at their bars (labels that would collide are left to the readout),
 * phase spans and the trading-range band behind the candles, stops and targets as price lines, and
 * an OHLC/volume readout of the bar under the pointer. Bars after the analysis' `asOf` are left out,
 * so the picture matches the reading. Colours follow the page's theme.
 */
import type { Analysis, Bar } from "@contracts/analysis";
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type Time,
} from "lightweight-charts";
import { useEffect, useMemo, useRef, useState } from "react";
import { barsAsOf, chartOverlays, clampRegions } from "../../lib/chart-overlays";
import { labelsThatFit, movingAverage, weekBarDates, weekOf, weeklyBars } from "../../lib/chart-series";
import { useDeskT } from "../../lib/desk-strings";
import { RegionsPrimitive } from "../../lib/regions-primitive";

/** What the chart shows. */
export interface ChartView {
  interval: "daily" | "weekly";
  showMA: boolean;
  showVolume: boolean;
  dark: boolean;
}

const MA = [
  { n: 20, color: "#e8a33d" },
  { n: 60, color: "#8e6bd8" },
] as const;

/** Draws one analysis over its bars. */
export function PriceChartCanvas({
  bars,
  analysis,
  height,
  view = { interval: "daily", showMA: true, showVolume: true, dark: false },
}: {
  bars: readonly Bar[];
  analysis: Analysis;
  height: number;
  view?: ChartView;
}) {
  const { t, f, lang } = useDeskT();
  const ref = useRef<HTMLDivElement>(null);
  const daily = useMemo(() => barsAsOf(bars, analysis.asOf), [bars, analysis.asOf]);
  const { shown, reading } = useMemo(() => {
    if (view.interval === "daily") return { shown: daily, reading: analysis };
    const weekly = weeklyBars(daily);
    const at = weekBarDates(weekly);
    const move = (d: string) => at.get(weekOf(d)) ?? d;
    return {
      shown: weekly,
      reading: { ...analysis, events: analysis.events.map((e) => ({ ...e, date: move(e.date) })) },
    };
  }, [daily, analysis, view.interval]);
  const [hover, setHover] = useState<string | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const text = view.dark ? "#c9cdd4" : "#4e5969";
    const grid = view.dark ? "rgba(255,255,255,0.06)" : "rgba(0,0,0,0.05)";
    const chart = createChart(el, {
      height,
      autoSize: true,
      layout: { background: { color: "transparent" }, textColor: text, attributionLogo: false, fontSize: 11 },
      grid: { vertLines: { color: grid }, horzLines: { color: grid } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false },
      crosshair: { mode: 0 },
      // month and date labels in the UI's language, not the browser's
      localization: { locale: lang === "zh" ? "zh-CN" : "en-US" },
    });
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: "#1f9d55",
      downColor: "#d64545",
      wickUpColor: "#1f9d55",
      wickDownColor: "#d64545",
      borderVisible: false,
    });
    candles.setData(
      shown.map((b) => ({ time: b.date as Time, open: b.open, high: b.high, low: b.low, close: b.close })),
    );
    if (view.showMA)
      for (const ma of MA) {
        const line = chart.addSeries(LineSeries, {
          color: ma.color,
          lineWidth: 1,
          priceLineVisible: false,
          lastValueVisible: false,
          crosshairMarkerVisible: false,
        });
        line.setData(movingAverage(shown, ma.n).map((p) => ({ time: p.date as Time, value: p.value })));
      }
    if (view.showVolume) {
      const volume = chart.addSeries(
        HistogramSeries,
        { priceFormat: { type: "volume" }, priceLineVisible: false, lastValueVisible: false },
        1,
      );
      volume.setData(
        shown.map((b) => ({
          time: b.date as Time,
          value: b.volume,
          color: b.close >= b.open ? "rgba(31,157,85,0.45)" : "rgba(214,69,69,0.45)",
        })),
      );
      chart.panes()[1]?.setHeight(Math.round(height * 0.22));
    }

    const overlays = chartOverlays(reading, shown, lang);
    const index = new Map(shown.map((b, i) => [b.date, i]));
    const spacing = Math.max(1, (el.clientWidth || 600) / Math.max(1, shown.length));
    const fits = labelsThatFit(overlays.markers, index, spacing);
    createSeriesMarkers(
      candles,
      overlays.markers.map((m, i) => ({
        time: m.time as Time,
        position: m.position,
        shape: m.shape,
        color: m.color,
        text: fits[i] ? m.label : "",
      })),
    );
    for (const line of overlays.lines) {
      candles.createPriceLine({
        price: line.price,
        color: line.color,
        lineWidth: 1,
        lineStyle: line.dashed ? LineStyle.Dashed : LineStyle.Solid,
        axisLabelVisible: true,
        title: line.title,
      });
    }
    candles.attachPrimitive(
      new RegionsPrimitive(clampRegions(overlays.regions, shown[0]?.date ?? "", shown.at(-1)?.date ?? ""), text),
    );
    chart.subscribeCrosshairMove((param) => {
      setHover(typeof param.time === "string" ? param.time : null);
    });
    chart.timeScale().fitContent();
    el.dataset.markers = String(overlays.markers.length);
    el.dataset.labels = String(fits.filter(Boolean).length);
    el.dataset.bars = String(shown.length);
    el.dataset.ready = "true";
    return () => chart.remove();
  }, [shown, reading, height, lang, view.dark, view.showMA, view.showVolume]);

  const byDate = useMemo(() => new Map(shown.map((b, i) => [b.date, i])), [shown]);
  const at = byDate.get(hover ?? "") ?? shown.length - 1;
  const bar = shown[at];
  const prev = shown[at - 1];
  const events = bar ? reading.events.filter((e) => e.date === bar.date).map((e) => e.type) : [];
  return (
    <div className="chart-wrap">
      {bar && (
        <p className="ohlc-readout" data-testid="ohlc-readout" aria-live="off">
          <span>{f.date(bar.date)}</span> {t("ohlcOpen")} {f.num(bar.open)} {t("ohlcHigh")} {f.num(bar.high)}{" "}
          {t("ohlcLow")} {f.num(bar.low)} {t("ohlcClose")} {f.num(bar.close)}
          {prev && (
            <span className={bar.close >= prev.close ? "gain" : "loss"}>
              {" "}
              {t("change")} {f.pct(bar.close / prev.close - 1)}
            </span>
          )}{" "}
          {t("ohlcVolume")} {f.num(bar.volume, 0)}
          {events.length > 0 && <strong> · {events.join(" · ")}</strong>}
        </p>
      )}
      <div ref={ref} className="chart" data-testid="chart" data-interval={view.interval} />
    </div>
  );
}
