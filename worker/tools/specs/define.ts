/**
 * ToolSpec: one declaration per tool (core ring: zod + metadata, no execute). The same spec feeds the
 * model (tool schemas), MCP, the web (labels, approval prompts, badges) and the runtime's governance.
 */
import type { z } from "zod";

/** How the runtime must treat a tool's calls. */
export interface ToolAnnotations {
  /** Reads only; never changes user data. */
  readOnly: boolean;
  /** Safe to run in parallel with other concurrency-safe calls of the same round. */
  concurrencySafe: boolean;
  /** Pauses the turn for the user's allow / always / edit / deny before running. */
  requiresApproval: boolean;
  /** Runs on the background queue; the call returns a task id at once. */
  background: boolean;
}

/** Display names for the reading room and logs. */
export interface ToolTitle {
  zh: string;
  en: string;
}

/** A tool's declaration. `name` is snake_case verb_object and is the same string everywhere. */
export interface ToolSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: ToolTitle;
  /** A prompt for the model: when to use it, units, limits (≈ 400 characters or fewer). */
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
}

/** Declares a tool spec (identity function that keeps the zod types). */
export function defineToolSpec<I extends z.ZodType, O extends z.ZodType>(spec: ToolSpec<I, O>): ToolSpec<I, O> {
  return spec;
}

/** The parsed input type of a spec. */
export type ToolInput<S extends ToolSpec> = z.output<S["input"]>;
/** The output type of a spec. */
export type ToolOutput<S extends ToolSpec> = z.output<S["output"]>;
