/**
 * `/portfolio`: the signed-in user's holdings, free cash and trade records. Every edit is previewed
 * by the server (nothing written) and applied only after the person confirms; CSV export and import
 * (previewed the same way). The agent's `update_portfolio` asks through the chat's approval dialog.
 */
import type { PortfolioChange, PortfolioPreview, PortfolioView, Position } from "@contracts/portfolio";
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog";
import { accountApi, errorMessage } from "../lib/api-client";
import { useIdT } from "../lib/identity-strings";
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
}

const EMPTY: Draft = { action: "add", code: "", name: "", shares: "", cost: "", buyDate: "", stop: "", freeCash: "" };

/** The change a draft asks for (empty fields left out; the server names any missing one). */
function changeOf(d: Draft): PortfolioChange {
  const num = (s: string) => (s.trim() === "" ? undefined : Number(s));
  const change: Record<string, unknown> = { action: d.action };
  if (d.action === "set_cash") change["freeCash"] = num(d.freeCash);
  else {
    change["code"] = d.code.trim() || undefined;
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

type Pending = { kind: "change"; change: PortfolioChange } | { kind: "import"; csv: string; mode: "replace" | "merge" };

/** The portfolio page. */
export function PortfolioPage() {
  const { t } = useIdT();
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
      setNotice(t("saved", { summary: done.summary }));
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
        <p>
          {t("freeCash")}: <strong data-testid="free-cash">{portfolio?.freeCash ?? "…"}</strong>
        </p>
        {portfolio && portfolio.positions.length === 0 ? (
          <p className="muted">{t("noPositions")}</p>
        ) : (
          <div className="table-wrap">
            <table className="id-table" data-testid="positions">
              <thead>
                <tr>
                  {(["code", "name", "shares", "cost", "buyDate", "stop", "actions"] as const).map((k) => (
                    <th key={k}>{t(k)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {portfolio?.positions.map((p) => (
                  <tr key={p.code} data-code={p.code}>
                    <td>{p.code}</td>
                    <td>{p.name}</td>
                    <td>{p.shares}</td>
                    <td>{p.cost}</td>
                    <td>{p.buyDate ?? ""}</td>
                    <td>{p.stop ?? ""}</td>
                    <td>
                      <button type="button" className="small" onClick={() => edit(p, "update")}>
                        {t("edit")}
                      </button>{" "}
                      <button type="button" className="small danger" onClick={() => edit(p, "remove")}>
                        {t("remove")}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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
              <option value="add">add</option>
              <option value="update">update</option>
              <option value="remove">remove</option>
              <option value="set_cash">set_cash</option>
            </select>
          </label>
          {draft.action === "set_cash" ? (
            field("freeCash", t("freeCash"), "number")
          ) : (
            <>
              {field("code", t("code"))}
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
                {new Date(r.at).toLocaleString()} · {r.action} {r.code ?? ""} {r.name ?? ""}
                {r.shares !== null ? ` ${r.shares}` : ""}
                {r.price !== null ? ` @ ${r.price}` : ""}
                {r.amount !== null && r.action === "set_cash" ? ` ${r.amount}` : ""}
                {r.note ? ` — ${r.note}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      {preview && (
        <ConfirmDialog
          title={t("confirmTitle")}
          body={`${preview.result.summary}. ${t("before")}: ${preview.result.before.positionCount} ${t("positions")}, ${t("freeCash")} ${preview.result.before.freeCash} → ${t("after")}: ${preview.result.after.positionCount} ${t("positions")}, ${t("freeCash")} ${preview.result.after.freeCash}`}
          confirmLabel={t("confirm")}
          cancelLabel={t("cancel")}
          onConfirm={() => void confirm()}
          onCancel={() => setPreview(null)}
        />
      )}
    </div>
  );
}
