/**
 * The settings page's "Your model" section: base URL, model, protocol, API key, optional fallback and
 * context window. A saved key is never sent back: the form shows "set · ends …abcd" and an empty key
 * field keeps it; the server checks the address and seals the key.
 */
import type { ModelProvider, ModelSettingsView, PutModelSettingsBody } from "@contracts/model-settings";
import { useCallback, useEffect, useState } from "react";
import { errorMessage, modelSettingsApi } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import { MODEL_SETTINGS_STRINGS, type ModelSettingsKey } from "../lib/model-settings-strings";
import { format } from "../lib/strings";

interface Form {
  baseURL: string;
  model: string;
  provider: ModelProvider | "";
  apiKey: string;
  fallbackBaseURL: string;
  fallbackModel: string;
  fallbackKey: string;
  contextWindow: string;
}

const EMPTY: Form = {
  baseURL: "",
  model: "",
  provider: "",
  apiKey: "",
  fallbackBaseURL: "",
  fallbackModel: "",
  fallbackKey: "",
  contextWindow: "",
};

function formOf(view: ModelSettingsView): Form {
  const own = view.own;
  if (!own) return EMPTY;
  return {
    baseURL: own.primary.baseURL,
    model: own.primary.model,
    provider: own.primary.provider ?? "",
    apiKey: "",
    fallbackBaseURL: own.fallback?.baseURL ?? "",
    fallbackModel: own.fallback?.model ?? "",
    fallbackKey: "",
    contextWindow: own.contextWindow ? String(own.contextWindow) : "",
  };
}

function bodyOf(f: Form, removeKey: boolean): PutModelSettingsBody {
  const fallback =
    f.fallbackBaseURL.trim() && f.fallbackModel.trim()
      ? {
          baseURL: f.fallbackBaseURL.trim(),
          model: f.fallbackModel.trim(),
          ...(f.fallbackKey.trim() ? { apiKey: f.fallbackKey.trim() } : {}),
        }
      : null;
  return {
    baseURL: f.baseURL.trim(),
    model: f.model.trim(),
    provider: f.provider === "" ? null : f.provider,
    ...(removeKey ? { apiKey: null } : f.apiKey.trim() ? { apiKey: f.apiKey.trim() } : {}),
    fallback,
    contextWindow: f.contextWindow.trim() ? Number(f.contextWindow.trim()) : null,
  };
}

/** The section. */
export function ModelSettings() {
  const { lang } = useT();
  const t = useCallback(
    (key: ModelSettingsKey, vars?: Record<string, string | number>) => format(MODEL_SETTINGS_STRINGS[lang][key], vars),
    [lang],
  );
  const [view, setView] = useState<ModelSettingsView | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    modelSettingsApi.get().then(
      (v) => {
        if (!current) return;
        setView(v);
        setForm(formOf(v));
      },
      (e: unknown) => current && setProblem(errorMessage(e)),
    );
    return () => {
      current = false;
    };
  }, [version]);

  const act = async (work: () => Promise<string>) => {
    setProblem(null);
    setNotice(null);
    try {
      setNotice(await work());
      setVersion((v) => v + 1);
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };
  const field = (key: keyof Form) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });
  const own = view?.own ?? null;
  const keyStatus = (k: { set: boolean; last4: string | null } | undefined) =>
    k?.set ? (k.last4 ? t("keySet", { last4: k.last4 }) : t("keySetShort")) : t("keyNotSet");
  let host = "";
  try {
    host = own ? new URL(own.primary.baseURL).host : "";
  } catch {
    host = "";
  }

  return (
    <section data-testid="model-settings" aria-labelledby="model-settings-title">
      <h2 id="model-settings-title">{t("title")}</h2>
      <p className="muted small">{t("intro")}</p>
      {view && (
        <p data-testid="model-in-use">
          {own
            ? t("usingOwn", { model: own.primary.model, host })
            : view.default.offline
              ? t("usingOffline")
              : t("usingDefault", { model: view.default.model })}
        </p>
      )}
      {problem && (
        <p className="inline-error" role="alert" data-testid="model-settings-error">
          {problem}
        </p>
      )}
      <form
        className="id-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            await modelSettingsApi.put(bodyOf(form, false));
            return t("saved");
          });
        }}
      >
        <label>
          {t("baseURL")}
          <input
            type="url"
            required
            placeholder="https://api.deepseek.com/v1"
            {...field("baseURL")}
            data-testid="model-base-url"
          />
        </label>
        <label>
          {t("model")}
          <input required placeholder="deepseek-chat" {...field("model")} data-testid="model-name" />
        </label>
        <label>
          {t("provider")}
          <select {...field("provider")} data-testid="model-provider">
            <option value="">{t("providerAuto")}</option>
            <option value="openai-compatible">{t("providerOpenAI")}</option>
            <option value="anthropic">{t("providerAnthropic")}</option>
          </select>
        </label>
        <label>
          {t("apiKey")}{" "}
          <span className="muted small" data-testid="model-key-status">
            {keyStatus(own?.primary.apiKey)}
          </span>
          <input
            type="password"
            autoComplete="off"
            placeholder={own?.primary.apiKey.set ? t("keyPlaceholderKeep") : t("keyPlaceholderNew")}
            {...field("apiKey")}
            data-testid="model-api-key"
          />
        </label>
        <fieldset>
          <legend>{t("fallback")}</legend>
          <label>
            {t("fallbackBaseURL")}
            <input type="url" {...field("fallbackBaseURL")} data-testid="fallback-base-url" />
          </label>
          <label>
            {t("fallbackModel")}
            <input {...field("fallbackModel")} data-testid="fallback-model" />
          </label>
          <label>
            {t("fallbackKey")} <span className="muted small">{keyStatus(own?.fallback?.apiKey)}</span>
            <input type="password" autoComplete="off" {...field("fallbackKey")} data-testid="fallback-api-key" />
          </label>
        </fieldset>
        <label>
          {t("contextWindow")}
          <input inputMode="numeric" {...field("contextWindow")} data-testid="model-context-window" />
        </label>
        <button type="submit" className="primary" data-testid="model-save">
          {t("save")}
        </button>
        {own?.primary.apiKey.set && (
          <button
            type="button"
            className="danger"
            onClick={() =>
              void act(async () => {
                await modelSettingsApi.put(bodyOf(form, true));
                return t("saved");
              })
            }
          >
            {t("keyDelete")}
          </button>
        )}
        {own && (
          <button
            type="button"
            className="danger"
            data-testid="model-delete"
            onClick={() =>
              void act(async () => {
                await modelSettingsApi.remove();
                return t("deleted");
              })
            }
          >
            {t("deleteAll")}
          </button>
        )}
        {notice && (
          <span className="muted small" role="status">
            {notice}
          </span>
        )}
      </form>
    </section>
  );
}
