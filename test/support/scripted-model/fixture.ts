/** A scripted model server for a vitest file: started before, reset between tests, closed after. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createModels, type ModelChain } from "../../../worker/runtime/model";
import { startScriptedModel, type ScriptedModel } from "./server.ts";

/** The running server and a model chain pointing at it (primary only, model id `model`). */
export interface ScriptedFixture {
  server(): ScriptedModel;
  models(): ModelChain;
}

/** Registers the hooks; call at module top level. */
export function useScriptedModel(model = "scripted"): ScriptedFixture {
  let server: ScriptedModel | undefined;
  beforeAll(async () => {
    server = await startScriptedModel();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server?.reset());
  const current = (): ScriptedModel => {
    if (!server) throw new Error("scripted model not started (useScriptedModel must be called at module level)");
    return server;
  };
  return {
    server: current,
    models: () => createModels({ baseURL: current().url, apiKey: undefined, model }, undefined),
  };
}
