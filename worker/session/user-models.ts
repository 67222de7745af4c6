/**
 * Which model serves a user: their own settings (Settings → Model) when they saved some, else the
 * deployment's `LLM_*` default. Used by turns (and so sub-agents and pipeline steps), background
 * reports and the memory pass. Keys are opened here, per use, and never leave the worker.
 */
import type { Config, ModelEndpoint } from "../config";
import type { Logger } from "../lib/log";
import { checkModelBaseUrl } from "../http/model-endpoint-policy";
import { createModels, unavailableModels, type ModelChain } from "../runtime/model";
import { d1Client } from "./d1-client";
import { KeyBox } from "../storage/key-box";
import { D1ModelSettings, type ModelSettingsRow } from "../storage/model-settings-repo";

/** The endpoints in effect for one user. */
export interface EffectiveModels {
  source: "user" | "default";
  model: ModelEndpoint | undefined;
  fallbackModel: ModelEndpoint | undefined;
  contextWindowOverride: number | undefined;
  /** Set when the user's own settings exist but cannot be used: what to tell them. */
  problem?: string;
}

/** The message when a saved key does not open with the current secret. */
export const KEY_UNREADABLE =
  "the saved API key cannot be decrypted with the server's MODEL_KEYS_SECRET (it was changed or removed). Enter the key again in Settings → Model, or delete your model settings to use the default model.";

async function endpointOf(
  row: ModelSettingsRow,
  which: "primary" | "fallback",
  box: () => Promise<KeyBox>,
  config: Config,
): Promise<ModelEndpoint | undefined> {
  const baseURL = which === "primary" ? row.baseUrl : row.fallbackBaseUrl;
  const model = which === "primary" ? row.model : row.fallbackModel;
  const sealed = which === "primary" ? row.apiKey : row.fallbackApiKey;
  const provider = (which === "primary" ? row.provider : row.fallbackProvider) ?? undefined;
  if (!baseURL || !model) return undefined;
  const allowed = checkModelBaseUrl(baseURL, config.authMode, which === "primary" ? "baseURL" : "fallback.baseURL");
  if (!allowed.ok) throw new Error(allowed.error.message);
  let apiKey: string | undefined;
  if (sealed) {
    const opened = await (await box()).open(sealed, row.ownerId);
    if (opened === null) throw new Error(KEY_UNREADABLE);
    apiKey = opened;
  }
  return { baseURL, model, apiKey, ...(provider ? { provider } : {}) };
}

/** The user's own endpoints, or the deployment's default when they saved none. */
export async function effectiveModels(d1: D1Database, config: Config, userId: string): Promise<EffectiveModels> {
  return effectiveModelsOf(await new D1ModelSettings(d1Client(d1)).get(userId), config);
}

/** The endpoints of a settings row already read (null: the user saved none, the default applies). */
export async function effectiveModelsOf(row: ModelSettingsRow | null, config: Config): Promise<EffectiveModels> {
  const fallbackToDefault: EffectiveModels = {
    source: "default",
    model: config.model,
    fallbackModel: config.fallbackModel,
    contextWindowOverride: config.contextWindowOverride,
  };
  if (!row) return fallbackToDefault;
  let opened: KeyBox | undefined;
  const box = async () => (opened ??= await KeyBox.create(config.modelKeysSecret));
  try {
    return {
      source: "user",
      model: await endpointOf(row, "primary", box, config),
      fallbackModel: await endpointOf(row, "fallback", box, config),
      contextWindowOverride: row.contextWindow ?? undefined,
    };
  } catch (error) {
    return {
      source: "user",
      model: undefined,
      fallbackModel: undefined,
      contextWindowOverride: undefined,
      problem: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The model chain a user's turn runs on; unusable own settings give a chain that explains why. */
export async function userModelChain(
  d1: D1Database,
  config: Config,
  userId: string,
  log: Logger,
): Promise<{ models: ModelChain; contextWindowOverride: number | undefined }> {
  return chainOf(await effectiveModels(d1, config, userId), log);
}

/** The model chain of a settings row already read (a turn's set-up reads it in its D1 batch). */
export async function userModelChainOf(
  row: ModelSettingsRow | null,
  config: Config,
  log: Logger,
): Promise<{ models: ModelChain; contextWindowOverride: number | undefined }> {
  return chainOf(await effectiveModelsOf(row, config), log);
}

function chainOf(
  effective: EffectiveModels,
  log: Logger,
): { models: ModelChain; contextWindowOverride: number | undefined } {
  if (effective.problem) {
    log.warn("user_model_unavailable", { problem: effective.problem });
    return { models: unavailableModels(effective.problem), contextWindowOverride: undefined };
  }
  return {
    models: createModels(effective.model, effective.fallbackModel),
    contextWindowOverride: effective.contextWindowOverride,
  };
}
