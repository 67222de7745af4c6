/**
 * `/portfolio`: the signed-in user's holdings, free cash and trade records. Every edit is previewed
 * by the server (nothing written) and applied only after the person confirms; CSV export and import
 * (previewed the same way). The agent's `update_portfolio` asks through the chat's approval dialog.
 */
import type { PortfolioChange, PortfolioPreview, PortfolioView, Position } from "@contracts/portfolio";
import { changeSummaryText, tradeNoteText } from "@contracts/server-text";
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog";
import { accountApi, errorMessage } from "../lib/api-client";
import { formatsOf } from "../lib/desk-strings";
import { useIdT, type IdKey } from "../lib/identity-strings";
import "../identity.css";

type Action = "add" | "update" | "remove" | "set_cash";

interface Draft {
  action: Action;
  code: string;
  name: string;
  shares: string;
  cost: string;
  buyDate: string;
  stop: string;
  freeCash: string;
  price: string;
  cash: "" | "trade" | "record";
}

const EMPTY: Draft = {
  action: "add",
  code: "",
  name: "",
  shares: "",
  cost: "",
  buyDate: "",
  stop: "",
  freeCash: "",
  price: "",
  cash: "",
};

/** The change a draft asks for (empty fields left out; the server names any missing one). */
function changeOf(d: Draft): PortfolioChange {
  const num = (s: string) => (s.trim() === "" ? undefined : Number(s));
  const change: Record<string, unknown> = { action: d.action };
  if (d.action === "set_cash") change["freeCash"] = num(d.freeCash);
  else {
    change["code"] = d.code.trim() || undefined;
    if ((d.action === "add" || d.action === "remove") && d.cash) change["cash"] = d.cash;
    if (d.action === "remove") change["price"] = num(d.price);
    if (d.action !== "remove") {
      if (d.name.trim()) change["name"] = d.name.trim();
      change["shares"] = num(d.shares);
      change["cost"] = num(d.cost);
      if (d.buyDate.trim()) change["buyDate"] = d.buyDate.trim();
      if (d.stop.trim()) change["stop"] = num(d.stop);
    }
  }
  return JSON.parse(JSON.stringify(change)) as PortfolioChange;
}

const signClass = (x: number): string => (x > 0 ? "up" : x < 0 ? "down" : "");
const signed = (text: string, x: number): string => (x > 0 ? `+${text}` : text);

/** The confirmation text of a previewed change: what it does, cash and positions before → after. */
function changeText(
  r: PortfolioPreview,
  t: ReturnType<typeof useIdT>["t"],
  f: ReturnType<typeof formatsOf>,
  lang: "zh" | "en",
): string {
  const move = r.cashMove
    ? t("cashMove", { amount: signed(f.num(r.cashMove.amount), r.cashMove.amount), price: f.num(r.cashMove.price) })
    : t("cashNoMove");
  return `${changeSummaryText(r.summary, lang)}. ${move}. ${t("freeCash")} ${f.num(r.before.freeCash)} → ${f.num(r.after.freeCash)}; ${t("positions")} ${r.before.positionCount} → ${r.after.positionCount}`;
}

const ACTION_KEYS = new Set([
  "act_add",
  "act_update",
  "act_remove",
  "act_set_cash",
  "act_import",
  "act_delete_records",
]);

type Pending = { kind: "change"; change: PortfolioChange } | { kind: "import"; csv: string; mode: "replace" | "merge" };

/** The portfolio page. */
export function PortfolioPage() {
  const { t, lang } = useIdT();
  const f = formatsOf(lang);
  const actionLabel = (action: string) => {
    const key = `act_${action}`;
    return ACTION_KEYS.has(key) ? t(key as IdKey) : action;
  };
  const [view, setView] = useState<PortfolioView | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ pending: Pending; result: PortfolioPreview } | null>(null);
  const [csv, setCsv] = useState("");
  const [mode, setMode] = useState<"replace" | "merge">("merge");

  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let current = true;
    accountApi.portfolio().then(
      (v) => current && setView(v),
      (e: unknown) => current && setProblem(t("failed", { error: errorMessage(e) })),
    );
    return () => {
      current = false;
    };
  }, [version, t]);

  const ask = async (pending: Pending) => {
    setProblem(null);
    setNotice(null);
    try {
      const result =
        pending.kind === "change"
          ? await accountApi.previewChange(pending.change)
          : await accountApi.importCsv(pending.csv, pending.mode, true);
      setPreview({ pending, result });
    } catch (e) {
      setProblem(t("failed", { error: errorMessage(e) }));
    }
  };

  const confirm = async () => {
    if (!preview) return;
    const { pending } = preview;
    setPreview(null);
    try {
      const done =
        pending.kind === "change"
          ? await accountApi.applyChange(pending.change)
          : await accountApi.importCsv(pending.csv, pending.mode, false);
      setNotice(t("saved", { summary: changeSummaryText(done.summary, lang) }));
      setDraft(EMPTY);
      reload();
    } catch (e) {
      setProblem(t("failed", { error: errorMessage(e) }));
    }
  };

  const download = async () => {
    try {
      const text = await accountApi.exportCsv();
      const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = "portfolio.csv";
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setProblem(t("failed", { error: errorMessage(e) }));
    }
  };

  const edit = (p: Position, action: Action) =>
    setDraft({
      ...EMPTY,
      action,
      code: p.code,
      shares: String(p.shares),
      cost: String(p.cost),
      buyDate: p.buyDate ?? "",
      stop: p.stop === null ? "" : String(p.stop),
    });

  const field = (key: keyof Draft, label: string, type = "text") => (
    <label>
      {label}
      <input
        name={key}
        type={type}
        step="any"
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
    </label>
  );

  const portfolio = view?.portfolio;
  const valuation = view?.valuation;
  return (
    <div className="id-page" data-testid="portfolio-page">
      <h1>{t("portfolioTitle")}</h1>
      {problem && (
        <p className="inline-error" role="alert" data-testid="portfolio-error">
          {problem}
        </p>
      )}
      {notice && (
        <p role="status" data-testid="portfolio-notice">
          {notice}
        </p>
      )}
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
                        <button type="button" className="small" onClick={() => edit(p, "update")}>
                          {t("edit")}
                        </button>{" "}
                        <button type="button" className="small danger" onClick={() => edit(p, "remove")}>
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
      <section>
        <h2>{draft.action === "set_cash" ? t("setCash") : t("addPosition")}</h2>
        <form
          className="id-form"
          data-testid="change-form"
          onSubmit={(e) => {
            e.preventDefault();
            void ask({ kind: "change", change: changeOf(draft) });
          }}
        >
          <label>
            {t("action")}
            <select
              name="action"
              value={draft.action}
              onChange={(e) => setDraft({ ...draft, action: e.target.value as Action })}
            >
              <option value="add">{t("act_add")}</option>
              <option value="update">{t("act_update")}</option>
              <option value="remove">{t("act_remove")}</option>
              <option value="set_cash">{t("act_set_cash")}</option>
            </select>
          </label>
          {draft.action === "set_cash" ? (
            field("freeCash", t("freeCash"), "number")
          ) : (
            <>
              {field("code", t("code"))}
              {draft.action === "remove" && field("price", t("salePrice"), "number")}
              {(draft.action === "add" || draft.action === "remove") && (
                <label>
                  {t("cashMode")}
                  <select
                    name="cash"
                    value={draft.cash}
                    onChange={(e) => setDraft({ ...draft, cash: e.target.value as Draft["cash"] })}
                  >
                    <option value="">{t("cashTrade")}</option>
                    <option value="record">{t("cashRecord")}</option>
                  </select>
                </label>
              )}
              {draft.action !== "remove" && (
                <>
                  {field("name", t("name"))}
                  {field("shares", t("shares"), "number")}
                  {field("cost", t("cost"), "number")}
                  {field("buyDate", t("buyDate"))}
                  {field("stop", t("stop"), "number")}
                </>
              )}
            </>
          )}
          <button type="submit" className="primary">
            {t("apply")}
          </button>
        </form>
        <p className="muted small" data-testid="cash-rule">
          {t("cashRule")}
        </p>
      </section>
      <section>
        <h2>CSV</h2>
        <p>
          <button type="button" onClick={() => void download()}>
            {t("exportCsv")}
          </button>
        </p>
        <label className="small" htmlFor="csv-text">
          {t("importCsv")} (code,name,shares,cost,buy_date,stop)
        </label>
        <textarea id="csv-text" data-testid="csv-text" value={csv} onChange={(e) => setCsv(e.target.value)} />
        <div className="id-form">
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void e.target.files?.[0]?.text().then(setCsv)}
            aria-label={t("importCsv")}
          />
          <label>
            {t("importMode")}
            <select value={mode} onChange={(e) => setMode(e.target.value as "replace" | "merge")}>
              <option value="merge">{t("importMerge")}</option>
              <option value="replace">{t("importReplace")}</option>
            </select>
          </label>
          <button type="button" disabled={csv.trim() === ""} onClick={() => void ask({ kind: "import", csv, mode })}>
            {t("importPreview")}
          </button>
        </div>
      </section>
      <section>
        <h2>{t("trades")}</h2>
        {view && view.trades.length === 0 ? (
          <p className="muted">{t("noTrades")}</p>
        ) : (
          <ul className="small" data-testid="trades">
            {view?.trades.map((r) => (
              <li key={r.id}>
                {f.dateTime(Date.parse(r.at))} · {actionLabel(r.action)} {r.code ?? ""} {r.name ?? ""}
                {r.shares !== null ? ` ${r.shares}` : ""}
                {r.price !== null ? ` @ ${f.num(r.price)}` : ""}
                {r.amount !== null && r.action === "set_cash" ? ` ${f.num(r.amount)}` : ""}
                {r.note ? ` — ${tradeNoteText(r.note, lang)}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      {preview && (
        <ConfirmDialog
          title={t("confirmTitle")}
          body={changeText(preview.result, t, f, lang)}
          confirmLabel={t("confirm")}
          cancelLabel={t("cancel")}
          onConfirm={() => void confirm()}
          onCancel={() => setPreview(null)}
        />
      )}
    </div>
  );
}
