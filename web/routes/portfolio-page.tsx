/**
 * `/portfolio`: the signed-in user's holdings, free cash and trade records. Every edit is previewed
 * by the server (nothing written) and applied only after the person confirms; CSV export and import
 * (previewed the same way). The agent's `update_portfolio` asks through the chat's approval dialog.
 */
import type { PortfolioChange, PortfolioPreview, PortfolioView, Position } from "@contracts/portfolio";
import { changeSummaryText, tradeNoteText } from "@contracts/server-text";
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../components/confirm-dialog";
import { EMPTY, PortfolioChangeForm, type Action, type Draft } from "../components/portfolio-change-form";
import { PortfolioPositions, signed } from "../components/portfolio-positions";
import { accountApi, errorMessage } from "../lib/api-client";
import { formatsOf } from "../lib/desk-strings";
import { useIdT, type IdKey } from "../lib/identity-strings";
import "../identity.css";

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
      <PortfolioPositions view={view} onEdit={edit} />
      <PortfolioChangeForm
        draft={draft}
        setDraft={setDraft}
        onSubmit={(change) => void ask({ kind: "change", change })}
      />
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
