/**
 * The model seam: OpenAI-compatible providers from settings (primary + optional fallback), each
 * wrapped to recover `<tool_call>` text, or the offline rule model when no model is configured.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { createOfflineModel, OFFLINE_MODEL_ID } from "./offline-model";
import { textToolCallMiddleware } from "./text-tool-calls";

/** One OpenAI-compatible endpoint (mirrors the edge's settings, without importing them). */
export interface ModelEndpointSettings {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
}

/** A usable model and the id it reports. */
export interface NamedModel {
  id: string;
  model: LanguageModelV4;
}

/** The models a turn may use, in order. */
export interface ModelChain {
  primary: NamedModel;
  fallback: NamedModel | undefined;
  offline: boolean;
}

function openAiCompatible(
  endpoint: ModelEndpointSettings,
  name: string,
  fetchImpl: typeof fetch | undefined,
): NamedModel {
  const provider = createOpenAICompatible({
    name,
    baseURL: endpoint.baseURL,
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    includeUsage: true,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const model = wrapLanguageModel({ model: provider.chatModel(endpoint.model), middleware: textToolCallMiddleware });
  return { id: endpoint.model, model: model as LanguageModelV4 };
}

/** Builds the chain from settings; no primary → the offline rule model (and no fallback). */
export function createModels(
  primary: ModelEndpointSettings | undefined,
  fallback: ModelEndpointSettings | undefined,
  fetchImpl?: typeof fetch,
): ModelChain {
  if (!primary)
    return { primary: { id: OFFLINE_MODEL_ID, model: createOfflineModel() }, fallback: undefined, offline: true };
  return {
    primary: openAiCompatible(primary, "primary", fetchImpl),
    fallback: fallback ? openAiCompatible(fallback, "fallback", fetchImpl) : undefined,
    offline: false,
  };
}
