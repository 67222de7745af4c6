/**
 * Starts the network-edge stand-ins on loopback before the workers project runs: the scripted
 * OpenAI-compatible model server and the fake market-data upstream. Their URLs reach the worker's
 * bindings through `inject` in vitest.config.ts, and the tests through `inject` too.
 */
import type { TestProject } from "vitest/node";
import { startFakeUpstream } from "../support/fake-upstream/server.ts";
import { startScriptedModel } from "../support/scripted-model/server.ts";
import { USER_MODEL_KEYS } from "./user-model-keys.ts";

declare module "vitest" {
  export interface ProvidedContext {
    modelUrl: string;
    upstreamUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The operator's key, and the keys test users save as their own model (model-settings.test.ts).
  const model = await startScriptedModel({ apiKey: ["test-key", ...USER_MODEL_KEYS] });
  const upstream = await startFakeUpstream();
  project.provide("modelUrl", model.url);
  project.provide("upstreamUrl", upstream.url);
  return async () => {
    await Promise.all([model.close(), upstream.close()]);
  };
}
