/**
 * A backtest result as research: the headline metrics (with the benchmark's return beside the
 * strategy's), the equity curve against the benchmark as an SVG chart, the trades table with links
 * to each symbol's chart, and the caveats that qualify every figure.
 */
import type { BacktestResult } from "@contracts/backtest";
import { caveatText, exitReasonText } from "@contracts/server-text";
import { useDeskT, type DeskKey } from "../lib/desk-strings";
import { ChartLink } from "./screening-view";

/** A backtest's exit mode (`contracts/backtest.ts` ExitMode) as words. */
const EXIT_KEY = { sltp: "exitSltp", close_only: "exitCloseOnly", atr: "exitAtr" } as const;

const W = 640;
const H = 200;
const PAD = 28;
const MAX_TRADE_ROWS = 300;

type Point = { date: string; nav: number };

function pathOf(points: readonly Point[], x: (date: string) => number, y: (v: number) => number): string {
  return points.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.date).toFixed(1)},${y(p.nav).toFixed(1)}`).join(" ");
}

/** The equity curve (strategy NAV, and the benchmark's when there is one). */
function EquityCurve({ nav, benchmark }: { nav: readonly Point[]; benchmark: readonly Point[] }) {
  const { t, f } = useDeskT();
  if (nav.length < 2) return null;
  const at = new Map(nav.map((p, i) => [p.date, i]));
  const values = [...nav, ...benchmark].map((p) => p.nav);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = (date: string) => PAD + ((at.get(date) ?? 0) / (nav.length - 1)) * (W - 2 * PAD);
  const y = (v: number) => H - PAD - ((v - lo) / span) * (H - 2 * PAD);
  const first = nav[0];
  const last = nav.at(-1);
  return (
    <figure className="equity-curve" data-testid="equity-curve">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t("equityCurve")} preserveAspectRatio="none">
        <line x1={PAD} x2={W - PAD} y1={y(1)} y2={y(1)} className="equity-base" />
        {benchmark.length > 1 && (
          <path d={pathOf(benchmark, x, y)} className="equity-benchmark" data-testid="equity-benchmark" />
        )}
        <path d={pathOf(nav, x, y)} className="equity-strategy" data-testid="equity-strategy" />
        <text x={PAD} y={H - 8} className="equity-label">
          {first ? f.date(first.date) : ""}
        </text>
        <text x={W - PAD} y={H - 8} textAnchor="end" className="equity-label">
          {last ? f.date(last.date) : ""}
        </text>
        <text x={4} y={y(hi) + 4} className="equity-label">
          {f.num(hi, 2)}
        </text>
        <text x={4} y={y(lo)} className="equity-label">
          {f.num(lo, 2)}
        </text>
      </svg>
      <figcaption className="small">
        <span className="legend legend-strategy">{t("strategy")}</span>
        {benchmark.length > 1 && <span className="legend legend-benchmark">{t("benchmark")}</span>}
      </figcaption>
    </figure>
  );
}

/** The backtest view. */
export function BacktestView({ result }: { result: BacktestResult }) {
  const { t, f, lang } = useDeskT();
  const bench = result.benchmark_nav ?? [];
  const benchRet = bench.length > 1 ? (bench.at(-1)?.nav ?? 1) - 1 : null;
  const total = result.portfolio_total_ret_pct / 100;
  const metrics: [DeskKey, string][] = [
    ["totalReturn", f.pct(total)],
    ["annualReturn", f.pct(result.portfolio_ann_ret_pct / 100)],
    ["maxDrawdown", f.pct(result.max_drawdown_pct / 100)],
    ["sharpe", f.num(result.sharpe_ratio, 2)],
    ["winRate", f.pct(result.win_rate_pct / 100, 1)],
    ["tradeCount", f.num(result.trades, 0)],
    ...(benchRet === null
      ? []
      : ([
          ["benchmarkReturn", f.pct(benchRet)],
          ["excessReturn", f.pct(total - benchRet)],
        ] as [DeskKey, string][])),
  ];
  const trades = result.trade_list.slice(-MAX_TRADE_ROWS).reverse();
  return (
    <section className="result-view" data-testid="backtest-view" aria-label={t("backtestTitle")}>
      <p className="muted small">
        {result.universe} · {result.period} · {t(EXIT_KEY[result.exit_mode])} · {t("holdDays", { n: result.hold_days })}{" "}
        · {t("topN", { n: result.top_n })}
      </p>
      <h3>{t("metrics")}</h3>
      <dl className="metric-grid" data-testid="backtest-metrics">
        {metrics.map(([key, value]) => (
          <div key={key}>
            <dt>{t(key)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>{t("equityCurve")}</h3>
      <EquityCurve nav={result.nav} benchmark={bench} />
      <h3>{t("trades")}</h3>
      {trades.length === 0 ? (
        <p className="muted">{t("noTrades")}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="trade-table">
            <thead>
              <tr>
                <th scope="col">{t("symbol")}</th>
                <th scope="col">{t("entryDate")}</th>
                <th scope="col">{t("entryPrice")}</th>
                <th scope="col">{t("exitDate")}</th>
                <th scope="col">{t("exitPrice")}</th>
                <th scope="col">{t("pnl")}</th>
                <th scope="col">{t("reason")}</th>
              </tr>
            </thead>
            <tbody>
              {trades.map((tr) => (
                <tr key={`${tr.code}-${tr.entryDate}`} data-testid="trade-row">
                  <td>
                    <ChartLink symbol={tr.code} />
                  </td>
                  <td>{f.date(tr.entryDate)}</td>
                  <td className="num">{f.num(tr.entryPrice)}</td>
                  <td>{f.date(tr.exitDate)}</td>
                  <td className="num">{f.num(tr.exitPrice)}</td>
                  <td className={`num ${tr.retPct >= 0 ? "gain" : "loss"}`}>{f.pct(tr.retPct / 100)}</td>
                  <td>{exitReasonText(tr.exitReason, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.caveats.length > 0 && (
        <ul className="muted small caveats">
          {result.caveats.map((c) => (
            <li key={c}>{caveatText(c, lang)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
