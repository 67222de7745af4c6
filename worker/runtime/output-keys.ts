/** The top-level keys each tool's output schema declares (for schema-aware result summaries). */
import { z } from "zod";
import type { BoundTool } from "../tools/bind";

const cache = new WeakMap<readonly BoundTool[], Map<string, ReadonlySet<string>>>();

/** Keys of a tool's output object per its schema; undefined for tools whose output is not an object. */
export function outputKeysOf(tools: readonly BoundTool[]): (toolName: string) => ReadonlySet<string> | undefined {
  let map = cache.get(tools);
  if (!map) {
    map = new Map();
    for (const t of tools) {
      const schema = z.toJSONSchema(t.spec.output, { io: "output", unrepresentable: "any" }) as {
        properties?: Record<string, unknown>;
      };
      if (schema.properties) map.set(t.spec.name, new Set(Object.keys(schema.properties)));
    }
    cache.set(tools, map);
  }
  const keys = map;
  return (name) => keys.get(name);
}
