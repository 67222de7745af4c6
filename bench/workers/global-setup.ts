/** Starts the scripted model (zero latency) and the metric collector for the workerd benchmarks. */
import type { TestProject } from "vitest/node";
import { startScriptedModel } from "../../test/support/scripted-model/server.ts";
import { startCollector } from "../support/collector.ts";

declare module "vitest" {
  export interface ProvidedContext {
    modelUrl: string;
    collectorUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const model = await startScriptedModel();
  const collector = await startCollector();
  project.provide("modelUrl", model.url);
  project.provide("collectorUrl", collector.url);
  return async () => {
    await Promise.all([model.close(), collector.close()]);
  };
}
