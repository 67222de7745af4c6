/** Starts the scripted model (zero latency), the metric collector and the fake market upstream for the workerd benchmarks. */
import type { TestProject } from "vitest/node";
import { startFakeUpstream } from "../../test/support/fake-upstream/server.ts";
import { startScriptedModel } from "../../test/support/scripted-model/server.ts";
import { startCollector } from "../support/collector.ts";

declare module "vitest" {
  export interface ProvidedContext {
    modelUrl: string;
    collectorUrl: string;
    upstreamUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const model = await startScriptedModel();
  const collector = await startCollector();
  const upstream = await startFakeUpstream();
  project.provide("upstreamUrl", upstream.url);
  project.provide("modelUrl", model.url);
  project.provide("collectorUrl", collector.url);
  return async () => {
    await Promise.all([model.close(), collector.close(), upstream.close()]);
  };
}
