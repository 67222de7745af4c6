/**
 * CLI for the scripted OpenAI-compatible model server.
 *
 *   npm run model:scripted -- path/to/script.json [--port N] [--host H] [--api-key K]
 *
 * Loads the script file (see `script.ts`), serves it on 127.0.0.1 (default
 * port 8788; `--port` or `PORT` override), prints the base URL and how to
 * point the app at it, logs each request, and stops cleanly on Ctrl+C or
 * SIGTERM. More responses can be queued at runtime with
 * `curl -X POST <origin>/__script -d '{"responses":[…]}'`.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseScriptFile, ScriptValidationError } from "./script.ts";
import { startScriptedModel } from "./server.ts";

const USAGE = `usage: npm run model:scripted -- <script.json> [--port N] [--host H] [--api-key K]
  script.json  an array of responses, or { model?, apiKey?, responses?, keyed? }
               (example: test/support/scripted-model/example-script.json)
  --port       default $PORT or 8788 (0 = any free port)
  --host       default 127.0.0.1
  --api-key    require "Authorization: Bearer <key>" on /v1 requests`;

/** Parses argv, starts the server and wires signal handling; resolves once listening. */
async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: "string", short: "p" },
      host: { type: "string" },
      "api-key": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true || positionals.length !== 1) {
    console.log(USAGE);
    process.exitCode = values.help === true ? 0 : 2;
    return;
  }
  const scriptPath = positionals[0] ?? "";
  const portText = values.port ?? process.env["PORT"] ?? "8788";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port ${JSON.stringify(portText)}`);
  }

  const script = parseScriptFile(JSON.parse(await readFile(scriptPath, "utf8")) as unknown);
  const apiKey = values["api-key"] ?? script.apiKey;
  const model = await startScriptedModel({
    port,
    host: values.host ?? "127.0.0.1",
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(script.model === undefined ? {} : { model: script.model }),
    log: (line) => console.log(`[scripted-model] ${line}`),
  });
  if (script.responses.length > 0) model.push(script.responses);
  for (const { key, responses } of script.keyed) model.push(responses, key);

  const origin = model.url.replace(/\/v1$/, "");
  const keyedSummary = script.keyed.map((k) => `${JSON.stringify(k.key)}: ${k.responses.length}`).join(", ");
  console.log(`Scripted model listening: ${model.url}`);
  console.log(
    `  loaded ${scriptPath}: ${script.responses.length} default response(s)${keyedSummary ? `; keyed ${keyedSummary}` : ""}`,
  );
  const keyEnv = apiKey === undefined ? "" : `LLM_API_KEY=${apiKey} `;
  console.log(
    `  point the app at it:  LLM_BASE_URL=${model.url} ${keyEnv}LLM_MODEL=${script.model ?? "scripted"} npm start`,
  );
  console.log(
    `  queue more:           curl -X POST ${origin}/__script -H 'content-type: application/json' -d '{"responses":[{"text":"hi"}]}'`,
  );
  console.log(`  inspect requests:     curl ${origin}/__requests`);
  console.log("  Ctrl+C to stop.");

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[scripted-model] ${signal}: shutting down`);
    model.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ScriptValidationError) console.error(`scripted-model: invalid script: ${error.message}`);
  else if ((error as { code?: unknown }).code === "EADDRINUSE") {
    console.error("scripted-model: port in use; pass --port N (or PORT=N), or --port 0 for any free port");
  } else console.error(`scripted-model: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
