/**
 * Model-call failures, classified: what went wrong, whether a retry
 * or the fallback model may help, and a short diagnosis a person can act on, in their language.
 */
import { APICallError, JSONParseError, TypeValidationError } from "ai";

/** What kind of failure a model call had. */
export type ModelFailureKind =
  | "dns"
  | "refused"
  | "connection"
  | "timeout"
  | "idle_timeout"
  | "tls"
  | "rate_limited"
  | "upstream"
  | "auth"
  | "unknown_model"
  | "context_too_long"
  | "bad_request"
  | "malformed_stream"
  | "settings"
  | "unknown";

/** A classified failure. */
export interface ModelFailure {
  kind: ModelFailureKind;
  /** A retry of the same call, or the fallback model, may succeed (429, 408, 5xx, timeouts, connection errors). */
  retriable: boolean;
  status: number | undefined;
  /** Milliseconds the server asked us to wait (retry-after), when it said. */
  retryAfterMs: number | undefined;
  /** Technical detail for logs (never shown as the diagnosis). */
  detail: string;
}

/** The user's language for diagnoses. */
export type Lang = "zh" | "en";

/** Thrown by the runtime's own watchdog when a stream goes silent. */
export class IdleTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no chunk from the model for ${ms} ms`);
    this.name = "IdleTimeoutError";
  }
}

function textOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      parts.push(`${current.name}: ${current.message}`);
      current = (current as { cause?: unknown }).cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(" <- ");
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && Number.isFinite(Number(ms))) return Number(ms);
  const s = headers["retry-after"];
  if (s !== undefined && Number.isFinite(Number(s))) return Number(s) * 1000;
  return undefined;
}

/**
 * The person's own model settings cannot be used (e.g. the saved key does not decrypt); its message
 * says what to do and is shown as is.
 */
export class ModelSettingsError extends Error {
  override name = "ModelSettingsError";
}

/** A transport failure named by the error chain (never by a response body), or undefined. */
function transportKind(lower: string): ModelFailureKind | undefined {
  if (/enotfound|getaddrinfo|dns|name not resolved|could not resolve/.test(lower)) return "dns";
  if (/econnrefused|connection refused/.test(lower)) return "refused";
  if (/certificate|\btls\b|\bssl\b|handshake/.test(lower)) return "tls";
  if (/timed? ?out|timeout|etimedout/.test(lower)) return "timeout";
  if (
    /cannot connect|network|socket|econnreset|other side closed|connection (lost|reset|closed)|fetch failed|failed to process successful response|\bterminated\b|premature close|aborted by the server/.test(
      lower,
    )
  )
    return "connection";
  return undefined;
}

/**
 * Classifies anything a model call can throw or report. Order matters: the runtime's idle watchdog,
 * malformed chunks, then transport failures named by the error chain (a stream that broke after a 200 is a lost
 * connection, not a "rejected request"), then the HTTP status of an error response. Parse errors are
 * recognised by their type first: their text quotes model output, which must not steer the diagnosis.
 */
export function classifyModelError(error: unknown): ModelFailure {
  const detail = textOf(error);
  const lower = detail.toLowerCase();
  if (error instanceof ModelSettingsError)
    return { kind: "settings", retriable: false, status: undefined, retryAfterMs: undefined, detail: error.message };
  if (error instanceof IdleTimeoutError) {
    return { kind: "idle_timeout", retriable: true, status: undefined, retryAfterMs: undefined, detail };
  }
  const none = { status: undefined, retryAfterMs: undefined, detail };
  // A chunk that did not parse: judged by the error's type, since its text quotes model output.
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    /^ai_jsonparseerror|^ai_typevalidationerror/.test(lower)
  )
    return { kind: "malformed_stream", retriable: false, ...none };
  const transport = transportKind(lower);
  if (transport) return { kind: transport, retriable: transport !== "tls", ...none };
  if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 400) {
    const status = error.statusCode;
    const body = (error.responseBody ?? "").toLowerCase();
    const base = { status, retryAfterMs: retryAfter(error.responseHeaders), detail: `${detail} ${body.slice(0, 300)}` };
    if (status === 401 || status === 403) return { kind: "auth", retriable: false, ...base };
    if (status === 429) return { kind: "rate_limited", retriable: true, ...base };
    if (status === 408) return { kind: "timeout", retriable: true, ...base };
    if (status >= 500) return { kind: "upstream", retriable: true, ...base };
    if (/context|maximum.*tokens|too many tokens|too long/.test(body))
      return { kind: "context_too_long", retriable: false, ...base };
    if (status === 404 || (/model/.test(body) && /not (found|exist)|does not exist|unknown|invalid/.test(body))) {
      return { kind: "unknown_model", retriable: false, ...base };
    }
    return { kind: "bad_request", retriable: false, ...base };
  }
  if (/jsonparseerror|json parse|unexpected token|invalid json|typevalidationerror/.test(lower)) {
    return { kind: "malformed_stream", retriable: false, ...none };
  }
  // A "successful" (2xx/3xx) response that still failed: the body broke off.
  if (APICallError.isInstance(error)) return { kind: "connection", retriable: true, ...none };
  return { kind: "unknown", retriable: false, ...none };
}

const DIAGNOSES: Record<ModelFailureKind, Record<Lang, string>> = {
  dns: {
    zh: "无法解析模型服务地址（DNS）。请检查 LLM_BASE_URL 的主机名和网络。",
    en: "The model server's host name did not resolve (DNS). Check LLM_BASE_URL and the network.",
  },
  refused: {
    zh: "模型服务拒绝连接。请确认服务已启动、端口正确（LLM_BASE_URL）。",
    en: "The model server refused the connection. Check that it is running and that LLM_BASE_URL has the right port.",
  },
  connection: {
    zh: "与模型服务的连接中断。请稍后重试。",
    en: "The connection to the model server was lost. Please try again.",
  },
  timeout: {
    zh: "模型服务响应超时。请稍后重试，或配置备用模型（LLM_FALLBACK_*）。",
    en: "The model server timed out. Try again, or configure a fallback model (LLM_FALLBACK_*).",
  },
  idle_timeout: {
    zh: "模型长时间没有输出（流式停顿超时），已停止本轮。请重试。",
    en: "The model stopped sending output (stream idle timeout); the turn was stopped. Please retry.",
  },
  tls: {
    zh: "与模型服务的 TLS/证书握手失败。请检查 LLM_BASE_URL 是否使用正确的 https 地址。",
    en: "TLS/certificate handshake with the model server failed. Check that LLM_BASE_URL is the right https address.",
  },
  rate_limited: {
    zh: "模型服务限流（429）。请稍后重试，或配置备用模型。",
    en: "The model server is rate limiting (429). Try again later, or configure a fallback model.",
  },
  upstream: {
    zh: "模型服务内部错误（5xx）。请稍后重试，或配置备用模型。",
    en: "The model server had an internal error (5xx). Try again later, or configure a fallback model.",
  },
  auth: {
    zh: "模型服务拒绝了密钥（401/403）。请检查 LLM_API_KEY。",
    en: "The model server rejected the API key (401/403). Check LLM_API_KEY.",
  },
  unknown_model: {
    zh: "模型服务不认识这个模型名。请检查 LLM_MODEL。",
    en: "The model server does not know this model name. Check LLM_MODEL.",
  },
  context_too_long: {
    zh: "对话超出了模型的上下文长度。请新建会话，或设置 LLM_CONTEXT_WINDOW。",
    en: "The conversation exceeds the model's context window. Start a new session or set LLM_CONTEXT_WINDOW.",
  },
  bad_request: {
    zh: "模型服务拒绝了请求（400）。请检查模型配置。",
    en: "The model server rejected the request (400). Check the model settings.",
  },
  malformed_stream: {
    zh: "模型服务返回了无法解析的数据。请重试。",
    en: "The model server sent data that could not be parsed. Please retry.",
  },
  settings: { zh: "无法使用你保存的模型设置：", en: "Your saved model settings cannot be used: " },
  unknown: { zh: "调用模型时出错。请重试。", en: "Calling the model failed. Please retry." },
};

/** A short diagnosis for the `error` part, in the user's language. */
export function diagnose(failure: ModelFailure, lang: Lang): string {
  if (failure.kind === "settings") return `${DIAGNOSES.settings[lang]}${failure.detail}`;
  const status = failure.status !== undefined ? ` [HTTP ${failure.status}]` : "";
  return `${DIAGNOSES[failure.kind][lang]}${status}`;
}

/** Picks the diagnosis language from the user's own text: any CJK character → Chinese. */
export function languageOf(text: string): Lang {
  return /[\u3400-\u9fff]/.test(text) ? "zh" : "en";
}

/**
 * The language the text itself shows, if any: any CJK character → Chinese; an English word → English.
 * A slash command's name and arguments (`/screen cn`), codes (`600000`, `AAPL`, `399006.sz`) and
 * identifiers (`s_01h…`) are not words, so `/screen` or `600000` alone show none.
 */
export function languageSignal(text: string): Lang | undefined {
  if (/[\u3400-\u9fff]/.test(text)) return "zh";
  if (text.trimStart().startsWith("/")) return undefined;
  const words = text
    .split(/[\s,;:!?()[\]"'“”‘’，。？！]+/)
    .filter((t) => /[a-z]{2,}/.test(t) && !/[\d_]/.test(t) && t !== t.toUpperCase());
  return words.length > 0 ? "en" : undefined;
}

/**
 * A turn's language: what the person's text shows, else the language their interface stated with
 * the message (`lang` on `POST …/messages`), else English.
 */
export function turnLanguage(text: string, stated?: Lang): Lang {
  return languageSignal(text) ?? stated ?? "en";
}
