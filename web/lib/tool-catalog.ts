/**
 * The tools the reading room knows by name — display names (zh/en), whether a call asks first, and
 * the input schema (for the approval form and validating an edit) — read from the worker's one tool
 * catalog, the same specs the model and MCP get.
 */
import type { ToolSpec } from "@tool-specs/define";
import { toolSpecByName } from "@tool-specs/catalog";
import type { Lang } from "./strings";

/** The spec of a tool, if it exists. */
export function toolSpec(name: string): ToolSpec | undefined {
  return toolSpecByName(name);
}

/** A tool's display name in a language (its snake_case name when unknown). */
export function toolTitle(name: string, lang: Lang): string {
  return toolSpecByName(name)?.title[lang] ?? name;
}
