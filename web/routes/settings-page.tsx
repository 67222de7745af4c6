/**
 * `/settings`: who you are and how the server identifies you; the API token this browser sends
 * (`AUTH_MODE=token`); your API tokens (a new one is shown once) and your share links, each revocable;
 * then the agent: your own model, usage and cost, skills and scenario hints.
 */
import type { ApiTokenSummary, CreatedApiToken, Me } from "@contracts/identity";
import type { ShareSummary } from "@contracts/share";
import { useCallback, useEffect, useState } from "react";
import { accountApi, ApiError, errorMessage } from "../lib/api-client";
import { authToken, setAuthToken } from "../lib/auth-token";
import { useIdT } from "../lib/identity-strings";
import { chatPath, navigate } from "../lib/router";
import { HintsManager } from "../components/hints-manager";
import { ModelSettings } from "../components/model-settings";
import { SkillsManager } from "../components/skills-manager";
import { UsageSummary } from "../components/usage-summary";
import "../identity.css";

/** The settings page. */
export function SettingsPage() {
  const { t, lang } = useIdT();
  const [me, setMe] = useState<Me | null>(null);
  const [signInNeeded, setSignInNeeded] = useState(false);
  const [tokens, setTokens] = useState<ApiTokenSummary[]>([]);
  const [shares, setShares] = useState<ShareSummary[]>([]);
  const [fresh, setFresh] = useState<CreatedApiToken | null>(null);
  const [label, setLabel] = useState("");
  const [stored, setStored] = useState(authToken() ?? "");
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(lang === "zh" ? "zh-CN" : "en") : t("never");

  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let current = true;
    const load = async () => {
      const who = await accountApi.me();
      const [tk, sh] = await Promise.all([accountApi.listTokens(), accountApi.listShares()]);
      return { who, tk, sh };
    };
    load().then(
      ({ who, tk, sh }) => {
        if (!current) return;
        setMe(who);
        setSignInNeeded(false);
        setProblem(null);
        setTokens(tk.tokens);
        setShares(sh.shares);
      },
      (e: unknown) => {
        if (!current) return;
        if (e instanceof ApiError && e.status === 401) {
          setMe(null);
          setSignInNeeded(true);
        } else setProblem(t("failed", { error: errorMessage(e) }));
      },
    );
    return () => {
      current = false;
    };
  }, [version, t]);

  const act = async (work: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await work();
      reload();
    } catch (e) {
      setProblem(t("failed", { error: errorMessage(e) }));
    }
  };

  const modeText =
    me?.authMode === "token" ? t("authToken") : me?.authMode === "access" ? t("authAccess") : t("authLocal");
  return (
    <div className="id-page" data-testid="settings-page">
      <h1>{t("settings")}</h1>
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      <section>
        {me && <p data-testid="signed-in-as">{t("signedInAs", { user: me.user, mode: me.authMode })}</p>}
        {me && <p className="muted small">{modeText}</p>}
        {signInNeeded && (
          <p className="inline-error" role="alert">
            {t("signInNeeded")}
          </p>
        )}
        {(signInNeeded || me?.authMode === "token") && (
          <form
            className="id-form"
            onSubmit={(e) => {
              e.preventDefault();
              setAuthToken(stored);
              setNotice(t("apiTokenSaved"));
              reload();
            }}
          >
            <label>
              {t("apiToken")}
              <input
                type="password"
                autoComplete="off"
                value={stored}
                onChange={(e) => setStored(e.target.value)}
                data-testid="api-token-input"
              />
            </label>
            <button type="submit" className="primary">
              {t("apiTokenSave")}
            </button>
            <button
              type="button"
              onClick={() => {
                setAuthToken(null);
                setStored("");
                reload();
              }}
            >
              {t("apiTokenClear")}
            </button>
            {notice && <span className="muted small">{notice}</span>}
          </form>
        )}
      </section>
      {me && (
        <section>
          <h2>{t("myTokens")}</h2>
          {fresh && (
            <div role="status">
              <p>{t("tokenShownOnce")}</p>
              <p className="id-secret" data-testid="new-token">
                {fresh.token}
              </p>
            </div>
          )}
          <form
            className="id-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(async () => {
                setFresh(await accountApi.createToken(label.trim()));
                setLabel("");
              });
            }}
          >
            <label>
              {t("tokenLabel")}
              <input value={label} maxLength={80} onChange={(e) => setLabel(e.target.value)} />
            </label>
            <button type="submit">{t("tokenCreate")}</button>
          </form>
          {tokens.length === 0 ? (
            <p className="muted">{t("noTokens")}</p>
          ) : (
            <table className="id-table" data-testid="tokens">
              <tbody>
                {tokens.map((tk) => (
                  <tr key={tk.id}>
                    <td>{tk.label || tk.id}</td>
                    <td className="muted small">
                      {t("created")} {when(tk.createdAt)}
                    </td>
                    <td>{tk.id === me.tokenId && <span className="muted small">{t("tokenCurrent")}</span>}</td>
                    <td>
                      <button
                        type="button"
                        className="small danger"
                        onClick={() => void act(() => accountApi.revokeToken(tk.id))}
                      >
                        {t("tokenRevoke")}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {me && (
        <section>
          <h2>{t("myShares")}</h2>
          {shares.length === 0 ? (
            <p className="muted">{t("noShares")}</p>
          ) : (
            <table className="id-table" data-testid="shares">
              <thead>
                <tr>
                  <th>{t("session")}</th>
                  <th>{t("created")}</th>
                  <th>{t("expires")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {shares.map((s) => (
                  <tr key={s.id} data-share={s.id}>
                    <td>
                      <a
                        href={chatPath(s.sessionId)}
                        onClick={(e) => {
                          e.preventDefault();
                          navigate(chatPath(s.sessionId));
                        }}
                      >
                        {s.sessionTitle ?? s.sessionId}
                      </a>
                    </td>
                    <td className="small">{when(s.createdAt)}</td>
                    <td className="small">{s.expired ? t("expired") : when(s.expiresAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="small danger"
                        onClick={() => void act(() => accountApi.revokeShare(s.id))}
                      >
                        {t("shareRevoke")}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {me && <ModelSettings />}
      {me && <UsageSummary />}
      {me && <SkillsManager />}
      {me && <HintsManager />}
    </div>
  );
}
