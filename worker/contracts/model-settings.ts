/**
 * Per-user model settings (Settings → Model): what the browser sends and what it gets back. A saved
 * API key never leaves the server: responses say only whether one is set and its last four characters.
 */
import { z } from "zod";

/** The wire protocols a model endpoint may speak. */
export const ModelProvider = z.enum(["openai-compatible", "anthropic"]);
export type ModelProvider = z.infer<typeof ModelProvider>;

const BaseUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(500);
const ModelName = z.string().trim().min(1).max(200);
/** A new API key: replaces the saved one. `null` deletes it; absent keeps it. */
const NewKey = z.string().trim().min(1).max(500).nullable().optional();

/** One endpoint as the browser sets it. */
export const ModelEndpointInput = z
  .object({ baseURL: BaseUrl, model: ModelName, provider: ModelProvider.nullable().optional(), apiKey: NewKey })
  .strict();
export type ModelEndpointInput = z.infer<typeof ModelEndpointInput>;

/** `PUT /api/settings/model`: the whole setting (fallback `null` or absent removes it). */
export const PutModelSettingsBody = z
  .object({
    baseURL: BaseUrl,
    model: ModelName,
    provider: ModelProvider.nullable().optional(),
    apiKey: NewKey,
    fallback: ModelEndpointInput.nullable().optional(),
    contextWindow: z.number().int().min(1024).max(10_000_000).nullable().optional(),
  })
  .strict();
export type PutModelSettingsBody = z.infer<typeof PutModelSettingsBody>;

/** Whether an endpoint has a saved key, and its last four characters. */
export const SavedKey = z.object({ set: z.boolean(), last4: z.string().nullable() });
export type SavedKey = z.infer<typeof SavedKey>;

/** One saved endpoint as the browser sees it (no key). */
export const ModelEndpointView = z.object({
  baseURL: z.string(),
  model: z.string(),
  provider: ModelProvider.nullable(),
  /** The protocol in effect (the setting, or inferred from the base URL). */
  effectiveProvider: ModelProvider,
  apiKey: SavedKey,
});
export type ModelEndpointView = z.infer<typeof ModelEndpointView>;

/** `GET /api/settings/model`: the user's own model, or `null` (the deployment's default applies). */
export const ModelSettingsView = z.object({
  own: z
    .object({
      primary: ModelEndpointView,
      fallback: ModelEndpointView.nullable(),
      contextWindow: z.number().nullable(),
      updatedAt: z.string(),
    })
    .nullable(),
  /** The deployment's default, used when `own` is null. */
  default: z.object({ model: z.string(), offline: z.boolean() }),
});
export type ModelSettingsView = z.infer<typeof ModelSettingsView>;
