/** Binds a core ToolSpec to its application-ring handler; the registry holds the pairs. */
import type { Result } from "../lib/result";
import type { ToolDeps, ToolContext } from "./deps";
import type { ToolInput, ToolOutput, ToolSpec } from "./specs/define";

/** Runs a tool. Expected failures are `err(...)` results the model reads; throwing is for bugs. */
export type ToolHandler<S extends ToolSpec> = (
  input: ToolInput<S>,
  deps: ToolDeps,
  ctx: ToolContext,
) => Promise<Result<ToolOutput<S>>>;

/** A spec with its handler. (`handler` is declared as a method so a list of tools with different input types type-checks.) */
export interface BoundTool<S extends ToolSpec = ToolSpec> {
  spec: S;
  handler(input: ToolInput<S>, deps: ToolDeps, ctx: ToolContext): Promise<Result<ToolOutput<S>>>;
}

/** Pairs a spec with its handler, keeping the types. */
export function bindTool<S extends ToolSpec>(spec: S, handler: ToolHandler<S>): BoundTool<S> {
  return { spec, handler };
}
