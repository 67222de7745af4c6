/**
 * A lightweight-charts series primitive that shades time spans (phases) and price boxes (the
 * trading range) behind the candles, with a small label at each region's top-left.
 */
import type {
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesPrimitive,
  SeriesAttachedParameter,
  Time,
} from "lightweight-charts";
import type { Region } from "./chart-overlays";

type Target = Parameters<IPrimitivePaneRenderer["draw"]>[0];

/** Draws regions on the pane's background. */
export class RegionsPrimitive implements ISeriesPrimitive<Time> {
  private attachedTo: SeriesAttachedParameter<Time> | null = null;
  private readonly view: IPrimitivePaneView;

  constructor(
    private readonly regions: readonly Region[],
    private readonly labelColor: string,
  ) {
    this.view = { zOrder: () => "bottom", renderer: () => ({ draw: () => {}, drawBackground: (t) => this.draw(t) }) };
  }

  attached(param: SeriesAttachedParameter<Time>): void {
    this.attachedTo = param;
  }

  detached(): void {
    this.attachedTo = null;
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return [this.view];
  }

  private draw(target: Target): void {
    const p = this.attachedTo;
    if (!p) return;
    const scale = p.chart.timeScale();
    target.useBitmapCoordinateSpace(
      ({ context: ctx, horizontalPixelRatio: hr, verticalPixelRatio: vr, bitmapSize }) => {
        // Labels never overlap: one is drawn only if it fits its span and clears the last one drawn on its row.
        const labelEnd = { top: -Infinity, box: -Infinity };
        for (const r of this.regions) {
          const x1 = scale.timeToCoordinate(r.from);
          const x2 = scale.timeToCoordinate(r.to);
          if (x1 === null || x2 === null) continue;
          const top = r.top === null ? 0 : p.series.priceToCoordinate(r.top);
          const bottom = r.bottom === null ? bitmapSize.height / vr : p.series.priceToCoordinate(r.bottom);
          if (top === null || bottom === null) continue;
          const x = Math.round(Math.min(x1, x2) * hr);
          const w = Math.max(1, Math.round(Math.abs(x2 - x1) * hr));
          const y = Math.round(Math.min(top, bottom) * vr);
          const h = Math.max(1, Math.round(Math.abs(bottom - top) * vr));
          ctx.fillStyle = r.color;
          ctx.fillRect(x, y, w, h);
          if (r.top !== null) {
            ctx.strokeStyle = "rgba(64,128,255,0.55)";
            ctx.lineWidth = Math.max(1, hr);
            ctx.setLineDash([4 * hr, 3 * hr]);
            ctx.strokeRect(x, y, w, h);
            ctx.setLineDash([]);
          }
          ctx.fillStyle = this.labelColor;
          ctx.font = `${Math.round(11 * vr)}px system-ui, sans-serif`;
          const row = r.top === null ? "top" : "box";
          const lx = x + 4 * hr;
          const lw = ctx.measureText(r.label).width;
          if (lw + 8 * hr <= w && lx >= labelEnd[row]) {
            ctx.fillText(r.label, lx, r.top === null ? 14 * vr : y - 4 * vr);
            labelEnd[row] = lx + lw + 6 * hr;
          }
        }
      },
    );
  }
}
