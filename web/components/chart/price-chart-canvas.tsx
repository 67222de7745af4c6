/**
 * The chart itself (lazy chunk: lightweight-charts): candles, volume in its own pane, event markers
 * at their bars, phase spans and the trading-range band behind the candles, stops and targets as
 * price lines. Bars after the analysis' `asOf` are left out, so the picture matches the reading.
 */
import type { Analysis, Bar } from "@contracts/analysis";
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  LineStyle,
  type Time,
} from "lightweight-charts";
import { useEffect, useRef } from "react";
import { barsAsOf, chartOverlays, clampRegions } from "../../lib/chart-overlays";
import { RegionsPrimitive } from "../../lib/regions-primitive";

function dark(): boolean {
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Draws one analysis over its bars. */
export function PriceChartCanvas({
  bars,
  analysis,
  height,
}: {
  bars: readonly Bar[];
  analysis: Analysis;
  height: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const isDark = dark();
    const text = isDark ? "#c9cdd4" : "#4e5969";
    const grid = isDark ? "rgba(255,255,255,0.06)" : "rgba(0,0,0,0.05)";
    const chart = createChart(el, {
      height,
      autoSize: true,
      layout: { background: { color: "transparent" }, textColor: text, attributionLogo: false, fontSize: 11 },
      grid: { vertLines: { color: grid }, horzLines: { color: grid } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false },
      crosshair: { mode: 0 },
    });
    const shown = barsAsOf(bars, analysis.asOf);
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
    const panes = chart.panes();
    panes[1]?.setHeight(Math.round(height * 0.22));

    const overlays = chartOverlays(analysis, shown);
    createSeriesMarkers(
      candles,
      overlays.markers.map((m) => ({
        time: m.time as Time,
        position: m.position,
        shape: m.shape,
        color: m.color,
        text: m.label,
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
    chart.timeScale().fitContent();
    el.dataset.markers = String(overlays.markers.length);
    el.dataset.ready = "true";
    return () => chart.remove();
  }, [bars, analysis, height]);
  return <div ref={ref} className="chart" data-testid="chart" />;
}
