/**
 * Lint rules for the rings that oxlint's built-in rules cannot say (loaded through `jsPlugins` in
 * .oxlintrc.json). `rings/no-clock`: core code never reads the clock — `new Date()` without
 * arguments is the current time (pass `now` in); `new Date(x)` parses a given date and stays allowed.
 */
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
  },
};
