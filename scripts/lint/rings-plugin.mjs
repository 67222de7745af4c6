/**
 * Lint rules for the rings that oxlint's built-in rules cannot say (loaded through `jsPlugins` in
 * .oxlintrc.json). `rings/no-clock`: core code never reads the clock — `new Date()` without
 * arguments is the current time (pass `now` in); `new Date(x)` parses a given date and stays allowed.
 * `rings/no-edge-types`: application code is typed on ports, never on the Workers runtime's binding
 * types (`Env`, `R2Bucket`, `D1Database`, a Durable Object namespace, …) — the edge builds adapters.
 */

/** Workers runtime types that only the edge may name (globals from worker-configuration.d.ts). */
const EDGE_TYPES = new Set([
  "Env",
  "R2Bucket",
  "D1Database",
  "D1PreparedStatement",
  "DurableObjectNamespace",
  "DurableObjectState",
  "DurableObjectStub",
  "SqlStorage",
  "Queue",
  "MessageBatch",
  "ExecutionContext",
  "KVNamespace",
  "Fetcher",
  "ExportedHandler",
]);
export default {
  meta: { name: "rings" },
  rules: {
    "no-clock": {
      meta: { type: "problem", docs: { description: "no `new Date()` (the current time) in the core ring" } },
      create(context) {
        return {
          NewExpression(node) {
            if (node.callee.type === "Identifier" && node.callee.name === "Date" && node.arguments.length === 0)
              context.report({ node, message: "core ring: `new Date()` reads the clock; pass `now` in" });
          },
        };
      },
    },
    "no-edge-types": {
      meta: {
        type: "problem",
        docs: { description: "no Workers binding types (`Env`, `R2Bucket`, …) in application code" },
      },
      create(context) {
        return {
          TSTypeReference(node) {
            const name = node.typeName;
            if (name.type === "Identifier" && EDGE_TYPES.has(name.name))
              context.report({
                node,
                message: `application ring: \`${name.name}\` is a binding type; depend on a port and let the edge build the adapter`,
              });
          },
        };
      },
    },
  },
};
