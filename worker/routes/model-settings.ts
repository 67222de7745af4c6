/**
 * The signed-in user's own model (Settings → Model): `GET|PUT|DELETE /api/settings/model`. Keys are
 * sealed on the way in and never sent back (only whether one is set and its last four characters);
 * base URLs pass the model endpoint policy (web_fetch's, plus loopback in `AUTH_MODE=local`). A
 * missing or unusable `MODEL_KEYS_SECRET` is a 500 naming it; DELETE works without it.
 */
import { Hono } from "hono";
import type { Config } from "../config";
import {
  PutModelSettingsBody,
  type ModelEndpointInput,
  type ModelEndpointView,
  type ModelSettingsView,
} from "../contracts/model-settings";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { AppError } from "../lib/app-error";
import { checkModelBaseUrl } from "../http/model-endpoint-policy";
import { OFFLINE_MODEL_ID } from "../config";
import { providerOf } from "../runtime/model";
import { KeyBox } from "../storage/key-box";
import { type ModelSettingsRow } from "../storage/model-settings-repo";
import { KEY_UNREADABLE } from "../session/user-models";

function endpointView(
  baseURL: string,
  model: string,
  provider: ModelSettingsRow["provider"],
  hint: string | null,
  sealed: string | null,
): ModelEndpointView {
  return {
    baseURL,
    model,
    provider: provider ?? null,
    effectiveProvider: providerOf({ baseURL, provider: provider ?? undefined }),
    apiKey: { set: sealed !== null, last4: sealed !== null ? hint : null },
  };
}

function view(row: ModelSettingsRow | null, config: Config): ModelSettingsView {
  const fallback =
    row?.fallbackBaseUrl && row.fallbackModel
      ? endpointView(
          row.fallbackBaseUrl,
          row.fallbackModel,
          row.fallbackProvider,
          row.fallbackApiKeyHint,
          row.fallbackApiKey,
        )
      : null;
  return {
    own: row
      ? {
          primary: endpointView(row.baseUrl, row.model, row.provider, row.apiKeyHint, row.apiKey),
          fallback,
          contextWindow: row.contextWindow ?? null,
          updatedAt: new Date(row.updatedAt).toISOString(),
        }
      : null,
    default: { model: config.model?.model ?? OFFLINE_MODEL_ID, offline: config.model === undefined },
  };
}

function checkedUrl(raw: string, config: Config, field: string): string {
  const checked = checkModelBaseUrl(raw, config.authMode, field);
  if (!checked.ok) throw new AppError("invalid_input", 400, checked.error.message);
  return checked.value;
}

/** The sealed key to store for one endpoint: a new one, the kept one, or none. */
async function keyFor(
  input: Pick<ModelEndpointInput, "apiKey">,
  baseURL: string,
  before: { baseURL: string | null; sealed: string | null; hint: string | null },
  box: KeyBox,
  owner: string,
  field: string,
): Promise<{ sealed: string | null; hint: string | null }> {
  if (input.apiKey === null) return { sealed: null, hint: null };
  // Only keys long enough that their last four characters give little away get a hint.
  if (input.apiKey !== undefined)
    return {
      sealed: await box.seal(input.apiKey, owner),
      hint: input.apiKey.length >= 12 ? input.apiKey.slice(-4) : null,
    };
  if (before.sealed === null) return { sealed: null, hint: null };
  // A kept key never follows the endpoint to another host: the person enters it again.
  if (before.baseURL === null || new URL(before.baseURL).origin !== new URL(baseURL).origin)
    throw new AppError("invalid_input", 400, `${field}: enter the API key again when the base URL's host changes`);
  return { sealed: before.sealed, hint: before.hint };
}

/** Model settings routes, mounted at /api/settings/model after the identity middleware. */
export const modelSettingsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const box = await KeyBox.create(c.var.config.modelKeysSecret);
    const row = await c.var.deps.modelSettings.get(c.var.userId);
    for (const sealed of [row?.apiKey, row?.fallbackApiKey])
      if (sealed && (await box.open(sealed, c.var.userId)) === null)
        throw new AppError("internal", 500, `server misconfigured: ${KEY_UNREADABLE}`);
    return c.json(view(row, c.var.config) satisfies ModelSettingsView);
  })
  .put("/", async (c) => {
    const body = await readJson(c, PutModelSettingsBody);
    const config = c.var.config;
    const box = await KeyBox.create(config.modelKeysSecret);
    const owner = c.var.userId;
    const repo = c.var.deps.modelSettings;
    const baseURL = checkedUrl(body.baseURL, config, "baseURL");
    const fallbackURL = body.fallback ? checkedUrl(body.fallback.baseURL, config, "fallback.baseURL") : null;
    const before = await repo.get(owner);
    const primaryKey = await keyFor(
      body,
      baseURL,
      { baseURL: before?.baseUrl ?? null, sealed: before?.apiKey ?? null, hint: before?.apiKeyHint ?? null },
      box,
      owner,
      "apiKey",
    );
    const fallbackKey =
      body.fallback && fallbackURL
        ? await keyFor(
            body.fallback,
            fallbackURL,
            {
              baseURL: before?.fallbackBaseUrl ?? null,
              sealed: before?.fallbackApiKey ?? null,
              hint: before?.fallbackApiKeyHint ?? null,
            },
            box,
            owner,
            "fallback.apiKey",
          )
        : { sealed: null, hint: null };
    const row: ModelSettingsRow = {
      ownerId: owner,
      baseUrl: baseURL,
      model: body.model,
      provider: body.provider ?? null,
      apiKey: primaryKey.sealed,
      apiKeyHint: primaryKey.hint,
      fallbackBaseUrl: fallbackURL,
      fallbackModel: body.fallback?.model ?? null,
      fallbackProvider: body.fallback?.provider ?? null,
      fallbackApiKey: fallbackKey.sealed,
      fallbackApiKeyHint: fallbackKey.hint,
      contextWindow: body.contextWindow ?? null,
      updatedAt: Date.now(),
    };
    await repo.put(row);
    c.var.log.info("model_settings_saved", {
      host: new URL(baseURL).host,
      provider: providerOf({ baseURL, provider: row.provider ?? undefined }),
      key: row.apiKey !== null,
      fallback: fallbackURL !== null,
    });
    return c.json(view(row, config) satisfies ModelSettingsView);
  })
  .delete("/", async (c) => {
    const removed = await c.var.deps.modelSettings.delete(c.var.userId);
    if (removed) c.var.log.info("model_settings_deleted", {});
    return c.body(null, 204);
  });
