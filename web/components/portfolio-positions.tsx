/**
 * The portfolio page's holdings: free cash, market and total value with P&L, and one row per position
 * (price, value, P&L at the last close, or why there is no price) with its edit and remove buttons.
 */
import type { PortfolioView, Position } from "@contracts/portfolio";
import { formatsOf } from "../lib/desk-strings";
import { useIdT } from "../lib/identity-strings";

/** `up` / `down` for a signed figure's colour. */
export const signClass = (x: number): string => (x > 0 ? "up" : x < 0 ? "down" : "");
/** A figure's text with `+` in front when it is positive. */
export const signed = (text: string, x: number): string => (x > 0 ? `+${text}` : text);

/** The totals and the positions table; `onEdit` opens a position in the change form. */
export function PortfolioPositions({
  view,
  onEdit,
}: {
  view: PortfolioView | null;
  onEdit: (p: Position, action: "update" | "remove") => void;
}) {
  const { t, lang } = useIdT();
  const f = formatsOf(lang);
  const portfolio = view?.portfolio;
  const valuation = view?.valuation;
  return (
    <section>
      <dl className="portfolio-totals" data-testid="portfolio-totals">
        <div>
          <dt>{t("freeCash")}</dt>
          <dd data-testid="free-cash">{portfolio ? f.num(portfolio.freeCash) : "…"}</dd>
        </div>
        {valuation && (
          <>
            <div>
              <dt>{t("marketValue")}</dt>
              <dd data-testid="market-value">{f.num(valuation.marketValue)}</dd>
            </div>
            <div>
              <dt>{t("totalValue")}</dt>
              <dd data-testid="total-value">{f.num(valuation.totalValue)}</dd>
            </div>
            <div>
              <dt>{t("totalPnl")}</dt>
              <dd data-testid="total-pnl" className={signClass(valuation.pnl)}>
                {signed(f.num(valuation.pnl), valuation.pnl)}
                {valuation.pnlPct !== null && ` (${signed(f.pct(valuation.pnlPct / 100), valuation.pnlPct)})`}
              </dd>
            </div>
          </>
        )}
      </dl>
      {portfolio && portfolio.positions.length === 0 ? (
        <p className="muted">{t("noPositions")}</p>
      ) : (
        <div className="table-wrap">
          <table className="id-table" data-testid="positions">
            <thead>
              <tr>
                {(
                  [
                    "code",
                    "name",
                    "shares",
                    "cost",
                    "price",
                    "value",
                    "pnl",
                    "pnlPct",
                    "buyDate",
                    "stop",
                    "actions",
                  ] as const
                ).map((k) => (
                  <th key={k}>{t(k)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {portfolio?.positions.map((p) => {
                const v = valuation?.positions.find((x) => x.code === p.code);
                return (
                  <tr key={p.code} data-code={p.code} data-testid="position-row">
                    <td>{p.code}</td>
                    <td>{p.name}</td>
                    <td className="num">{f.num(p.shares, 0)}</td>
                    <td className="num">{f.num(p.cost)}</td>
                    {v && v.price !== null ? (
                      <>
                        <td
                          className="num"
                          data-testid="position-price"
                          title={v.priceDate ? t("priceAsOf", { date: f.date(v.priceDate) }) : undefined}
                        >
                          {f.num(v.price)}
                        </td>
                        <td className="num" data-testid="position-value">
                          {f.num(v.value ?? NaN)}
                        </td>
                        <td className={`num ${signClass(v.pnl ?? 0)}`} data-testid="position-pnl">
                          {signed(f.num(v.pnl ?? NaN), v.pnl ?? 0)}
                        </td>
                        <td className={`num ${signClass(v.pnl ?? 0)}`} data-testid="position-pnl-pct">
                          {v.pnlPct === null ? "—" : signed(f.pct(v.pnlPct / 100), v.pnlPct)}
                        </td>
                      </>
                    ) : (
                      <td colSpan={4} className="muted small" data-testid="position-no-price">
                        {valuation ? t("noPrice", { error: v?.error ?? "?" }) : "…"}
                      </td>
                    )}
                    <td>{p.buyDate ? f.date(p.buyDate) : ""}</td>
                    <td className="num">{p.stop === null ? "" : f.num(p.stop)}</td>
                    <td>
                      <button type="button" className="small" onClick={() => onEdit(p, "update")}>
                        {t("edit")}
                      </button>{" "}
                      <button type="button" className="small danger" onClick={() => onEdit(p, "remove")}>
                        {t("remove")}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {valuation?.positions.some((v) => v.simulated) && <p className="muted small">{t("simulatedPrices")}</p>}
    </section>
  );
}
