/**
 * The portfolio page's change form: add, update or remove a position (a sale's price, whether cash
 * moves) or set free cash. It only drafts: the page previews the change it builds before anything is written.
 */
import type { PortfolioChange } from "@contracts/portfolio";
import { useIdT } from "../lib/identity-strings";

/** What the form can ask for. */
export type Action = "add" | "update" | "remove" | "set_cash";

/** The form's fields as typed (text until the change is built). */
export interface Draft {
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

/** An empty draft (add). */
export const EMPTY: Draft = {
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
export function changeOf(d: Draft): PortfolioChange {
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

/** The change form over `draft`; submitting hands the built change to `onSubmit`. */
export function PortfolioChangeForm({
  draft,
  setDraft,
  onSubmit,
}: {
  draft: Draft;
  setDraft: (d: Draft) => void;
  onSubmit: (change: PortfolioChange) => void;
}) {
  const { t } = useIdT();
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
  return (
    <section>
      <h2>{draft.action === "set_cash" ? t("setCash") : t("addPosition")}</h2>
      <form
        className="id-form"
        data-testid="change-form"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(changeOf(draft));
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
  );
}
