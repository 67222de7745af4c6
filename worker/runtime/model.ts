/**
 * The model seam: providers from settings (primary + optional fallback) — OpenAI-compatible endpoints
 * (wrapped to recover `<tool_call>` text and to retry without optional parameters they reject) or
 * Anthropic's Messages API (chosen by its host or the provider setting) — or the offline rule model
 * when no model is configured.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { ModelSettingsError } from "./errors";
import { createOfflineModel, OFFLINE_MODEL_ID } from "./offline-model";
import { withParameterFallback } from "./param-fallback";
import { textToolCallMiddleware } from "./text-tool-calls";

/** The wire protocols a configured endpoint may speak. */
export type ProviderKind = "openai-compatible" | "anthropic";

/** One model endpoint (mirrors the edge's settings, without importing them). */
export interface ModelEndpointSettings {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  /** The protocol; absent → Anthropic for `api.anthropic.com`, else OpenAI-compatible. */
  provider?: ProviderKind | undefined;
}

/** A usable model, the id it reports and how it is reached (prompt caching depends on it). */
export interface NamedModel {
  id: string;
  model: LanguageModelV4;
  provider: ProviderKind | "offline";
}

/** The models a turn may use, in order. */
export interface ModelChain {
  primary: NamedModel;
  fallback: NamedModel | undefined;
  offline: boolean;
}

/** The protocol of an endpoint: the explicit setting, else Anthropic's own host, else OpenAI-compatible. */
export function providerOf(endpoint: Pick<ModelEndpointSettings, "baseURL" | "provider">): ProviderKind {
  if (endpoint.provider) return endpoint.provider;
  try {
    return new URL(endpoint.baseURL).hostname.toLowerCase() === "api.anthropic.com" ? "anthropic" : "openai-compatible";
  } catch {
    return "openai-compatible";
  }
}

function anthropic(endpoint: ModelEndpointSettings, fetchImpl: typeof fetch | undefined): NamedModel {
  const provider = createAnthropic({
    baseURL: endpoint.baseURL,
    // The SDK insists on a key; an endpoint without one (a local proxy) gets an empty header.
    apiKey: endpoint.apiKey ?? "",
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return { id: endpoint.model, model: provider(endpoint.model), provider: "anthropic" };
}

function openAiCompatible(
  endpoint: ModelEndpointSettings,
  name: string,
  fetchImpl: typeof fetch | undefined,
): NamedModel {
  const base = fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const provider = createOpenAICompatible({
    name,
    baseURL: endpoint.baseURL,
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    includeUsage: true,
    fetch: withParameterFallback(endpoint.baseURL, base as typeof fetch),
  });
  const model = wrapLanguageModel({ model: provider.chatModel(endpoint.model), middleware: textToolCallMiddleware });
  return { id: endpoint.model, model: model as LanguageModelV4, provider: "openai-compatible" };
}

function named(endpoint: ModelEndpointSettings, name: string, fetchImpl: typeof fetch | undefined): NamedModel {
  return providerOf(endpoint) === "anthropic"
    ? anthropic(endpoint, fetchImpl)
    : openAiCompatible(endpoint, name, fetchImpl);
}

/** Builds the chain from settings; no primary → the offline rule model (and no fallback). */
export function createModels(
  primary: ModelEndpointSettings | undefined,
  fallback: ModelEndpointSettings | undefined,
  fetchImpl?: typeof fetch,
): ModelChain {
  if (!primary)
    return {
      primary: { id: OFFLINE_MODEL_ID, model: createOfflineModel(), provider: "offline" },
      fallback: undefined,
      offline: true,
    };
  return {
    primary: named(primary, "primary", fetchImpl),
    fallback: fallback ? named(fallback, "fallback", fetchImpl) : undefined,
    offline: false,
  };
}

/**
 * A chain whose every call fails with `message` (the person's own settings exist but cannot be used):
 * the turn ends with that diagnosis instead of silently spending the deployment's default model.
 */
export function unavailableModels(message: string): ModelChain {
  const fail = async (): Promise<never> => {
    throw new ModelSettingsError(message);
  };
  const model: LanguageModelV4 = {
    specificationVersion: "v4",
    provider: "user-settings",
    modelId: "unavailable",
    supportedUrls: {},
    doGenerate: fail,
    doStream: fail,
  };
  return { primary: { id: "unavailable", model, provider: "openai-compatible" }, fallback: undefined, offline: false };
}
