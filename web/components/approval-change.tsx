/**
 * What an approval-needing call would change, before → after, in words and numbers rather than raw
 * JSON: `update_portfolio` asks the server for a preview of the very change (the same planning the
 * tool runs, nothing written) and shows the position and free cash before and after; `write_file`
 * shows the path, the size and whether it creates a file or replaces one (and that one's size);
 * `rename_session` shows the old and the new title. The raw input stays available in the dialog.
 */
import type { PortfolioPreview, Position } from "@contracts/portfolio";
import { PortfolioChange } from "@contracts/portfolio";
import { formatIssues, issuesInChinese, type Issue } from "@contracts/errors";
import type { WorkspaceStat } from "@contracts/api";
import { useEffect, useState } from "react";
import { accountApi, errorMessage } from "../lib/api-client";
import { useDeskT } from "../lib/desk-strings";

type Loaded<T> = { state: "loading" } | { state: "ready"; value: T } | { state: "failed"; error: string };

function useLoaded<T>(load: (() => Promise<T>) | null, key: string): Loaded<T> | null {
  const [got, setGot] = useState<Loaded<T> | null>(load ? { state: "loading" } : null);
  useEffect(() => {
    if (!load) return;
    let live = true;
    setGot({ state: "loading" });
    load().then(
      (value) => live && setGot({ state: "ready", value }),
      (e: unknown) => live && setGot({ state: "failed", error: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `key` names the input; `load` is rebuilt each render
  }, [key]);
  return got;
}

/** True when the dialog has a before → after view for this tool. */
export function hasChangeView(toolName: string): boolean {
  return toolName === "update_portfolio" || toolName === "write_file" || toolName === "rename_session";
}

/** The change view of one pending call. */
export function ApprovalChange({
  toolName,
  input,
  sessionTitle,
}: {
  toolName: string;
  input: unknown;
  sessionTitle?: string;
}) {
  const { t } = useDeskT();
  let body: React.ReactNode = null;
  if (toolName === "update_portfolio") body = <PortfolioChangeView input={input} />;
  else if (toolName === "write_file") body = <WriteFileView input={input} />;
  else if (toolName === "rename_session") {
    const title = typeof (input as { title?: unknown })?.title === "string" ? (input as { title: string }).title : "";
    body = (
      <table className="change-table" data-testid="change-rename">
        <tbody>
          <tr>
            <th scope="row">{t("changeTitleFrom")}</th>
            <td data-testid="change-before">{sessionTitle || t("changeNone")}</td>
            <td aria-hidden="true">→</td>
            <td data-testid="change-after">{title}</td>
          </tr>
        </tbody>
      </table>
    );
  }
  if (!body) return null;
  return (
    <section className="approval-change" data-testid="approval-change" aria-label={t("changeTitle")}>
      <h3>{t("changeTitle")}</h3>
      {body}
    </section>
  );
}

function positionText(
  p: Position | undefined,
  t: ReturnType<typeof useDeskT>["t"],
  num: (x: number, d?: number) => string,
): string {
  if (!p) return t("changeNone");
  return `${num(p.shares, 0)} @ ${num(p.cost)}${p.stop !== null ? ` · ${t("changeStop", { v: num(p.stop) })}` : ""}`;
}

/** The first reason a change does not parse, in the UI's language (`formatIssues`, zod's zh-CN locale in Chinese). */
function refusedIssue(input: unknown, issues: readonly Issue[], lang: "zh" | "en"): string {
  const first = lang === "zh" ? issuesInChinese(PortfolioChange, input, issues).slice(0, 1) : issues.slice(0, 1);
  return first.length > 0 ? formatIssues(first, lang === "zh" ? { lang } : {}) : "?";
}

function PortfolioChangeView({ input }: { input: unknown }) {
  const { t, f, lang } = useDeskT();
  const parsed = PortfolioChange.safeParse(input);
  const key = JSON.stringify(input);
  const got = useLoaded<PortfolioPreview>(parsed.success ? () => accountApi.previewChange(parsed.data) : null, key);
  if (!parsed.success)
    return (
      <p className="inline-error">{t("changeRefused", { error: refusedIssue(input, parsed.error.issues, lang) })}</p>
    );
  if (!got || got.state === "loading") return <p className="muted small">{t("changeLoading")}</p>;
  if (got.state === "failed")
    return (
      <p className="inline-error" data-testid="change-refused">
        {t("changeRefused", { error: got.error })}
      </p>
    );
  const { before, after, cashMove } = got.value;
  // The position the change touches: the one whose row differs (added, changed or removed).
  const codes = new Set([...before.positions, ...after.positions].map((p) => p.code));
  const touched = [...codes].filter((code) => {
    const a = before.positions.find((p) => p.code === code);
    const b = after.positions.find((p) => p.code === code);
    return JSON.stringify(a && { ...a, updatedAt: "" }) !== JSON.stringify(b && { ...b, updatedAt: "" });
  });
  return (
    <div className="change-wrap">
      <table className="change-table" data-testid="change-portfolio">
        <thead>
          <tr>
            <th />
            <th>{t("changeBefore")}</th>
            <th aria-hidden="true" />
            <th>{t("changeAfter")}</th>
          </tr>
        </thead>
        <tbody>
          {touched.map((code) => {
            const a = before.positions.find((p) => p.code === code);
            const b = after.positions.find((p) => p.code === code);
            return (
              <tr key={code} data-testid="change-position">
                <th scope="row">
                  {code} {(b ?? a)?.name}
                </th>
                <td>{positionText(a, t, f.num)}</td>
                <td aria-hidden="true">→</td>
                <td>{positionText(b, t, f.num)}</td>
              </tr>
            );
          })}
          <tr data-testid="change-cash">
            <th scope="row">{t("changeCash")}</th>
            <td>{f.num(before.freeCash)}</td>
            <td aria-hidden="true">→</td>
            <td>
              {f.num(after.freeCash)}
              <span className="muted small change-note">
                (
                {cashMove
                  ? t("changeCashMove", {
                      amount: `${cashMove.amount > 0 ? "+" : ""}${f.num(cashMove.amount)}`,
                      price: f.num(cashMove.price),
                    })
                  : t("changeCashSame")}
                )
              </span>
            </td>
          </tr>
          <tr>
            <th scope="row">{t("changePositions")}</th>
            <td>{before.positionCount}</td>
            <td aria-hidden="true">→</td>
            <td>{after.positionCount}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function WriteFileView({ input }: { input: unknown }) {
  const { t, f } = useDeskT();
  const i = input as { path?: unknown; content?: unknown };
  const path = typeof i?.path === "string" ? i.path : "";
  const size = typeof i?.content === "string" ? new TextEncoder().encode(i.content).byteLength : 0;
  const got = useLoaded<WorkspaceStat>(path ? () => accountApi.workspaceStat(path) : null, path);
  const bytes = (n: number) => t("bytes", { n: f.num(n, 0) });
  return (
    <div data-testid="change-file">
      <p>
        <strong>{t("changeFile", { path })}</strong>
      </p>
      {!got || got.state === "loading" ? (
        <p className="muted small">{t("changeLoading")}</p>
      ) : got.state === "failed" ? (
        <p className="inline-error" data-testid="change-refused">
          {t("changeRefused", { error: got.error })}
        </p>
      ) : (
        <p data-testid="change-file-kind">
          {got.value.exists && got.value.size !== null
            ? t("changeFileReplace", { before: bytes(got.value.size), after: bytes(size) })
            : t("changeFileNew", { size: bytes(size) })}
        </p>
      )}
    </div>
  );
}
