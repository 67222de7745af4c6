/**
 * createApp(): the Hono app of the HTTP edge. Middleware (request id, settings, the request's deps
 * as `c.var.deps`, logging, body limit, identity), one `onError` producing the error envelope, and
 * one sub-app per resource.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { loadConfig } from "./config";
import { AppError } from "./lib/app-error";
import { consoleSink } from "./console-sink";
import { createLogger } from "./lib/log";
import type { AppEnv } from "./http/app-env";
import { errorResponse, handleError } from "./http/errors";
import { crossOrigin, mcpCrossOrigin } from "./http/cors";
import { pathGuard } from "./http/path-guard";
import { createIdentify } from "./http/identity";
import { accountRoutes } from "./routes/account";
import { adminRoutes } from "./routes/admin";
import { workspaceRoutes } from "./routes/workspace";
import { portfolioRoutes } from "./routes/portfolio";
import { sessionShareRoutes, shareOwnerRoutes, shareReadRoutes } from "./routes/shares";
import { analyzeRoutes } from "./routes/analyze";
import { healthRoutes } from "./routes/health";
import { marketRoutes } from "./routes/market";
import { marketSyncRoutes } from "./routes/market-sync";
import { sessionRoutes } from "./routes/sessions";
import { taskRoutes } from "./routes/tasks";
import { webhookRoutes } from "./routes/webhooks";
import { auditOwnerRoutes, auditPublicRoutes, sessionAuditRoutes } from "./routes/audit";
import { usageRoutes } from "./routes/usage";
import { memoryRoutes } from "./routes/memory";
import { modelSettingsRoutes } from "./routes/model-settings";
import { hintRoutes, skillRoutes } from "./routes/skills";
import { mcpRoutes } from "./mcp/server";
import { createRequestDeps } from "./routes/request-deps";

/** Largest request body accepted by the API (bytes); 5,000 bars of OHLCV fit well inside. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Builds the app. `fetch` reaches outside services the edge itself calls (the Access key set); tests inject one. */
export function createApp(opts: { fetch?: typeof fetch } = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(async (c, next) => {
    const log = createLogger(consoleSink, { requestId: c.var.requestId });
    c.set("log", log);
    const config = loadConfig(c.env);
    c.set("config", config);
    c.set(
      "deps",
      createRequestDeps(c.env.DB, config, (...a) => fetch(...a)),
    );
    const started = Date.now();
    await next();
    log.info("request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  });
  app.use(pathGuard);
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError("payload_too_large", 413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.use("/api/*", crossOrigin);
  app.route("/api/health", healthRoutes);
  // Before identity: admin routes answer to ADMIN_TOKEN, share links to their capability token, webhooks to their signature.
  app.route("/api/admin", adminRoutes);
  app.route("/api/shares", shareReadRoutes);
  app.route("/api/webhooks", webhookRoutes);
  app.route("/api/audit", auditPublicRoutes);
  app.use("/api/*", createIdentify(opts.fetch ? { fetch: opts.fetch } : {}));
  app.route("/api", accountRoutes);
  app.route("/api/shares", shareOwnerRoutes);
  app.route("/api/sessions", sessionShareRoutes);
  app.route("/api/sessions", sessionAuditRoutes);
  app.route("/api/audit", auditOwnerRoutes);
  app.route("/api/portfolio", portfolioRoutes);
  app.route("/api/analyze", analyzeRoutes);
  app.route("/api/market/sync", marketSyncRoutes);
  app.route("/api/market", marketRoutes);
  app.route("/api/sessions", sessionRoutes);
  app.route("/api/tasks", taskRoutes);
  app.route("/api/usage", usageRoutes);
  app.route("/api/memory", memoryRoutes);
  app.route("/api/skills", skillRoutes);
  app.route("/api/hints", hintRoutes);
  app.route("/api/settings/model", modelSettingsRoutes);
  app.route("/api/workspace", workspaceRoutes);
  // MCP (Streamable HTTP, stateless): the same identity modes as the API.
  app.use("/mcp", mcpCrossOrigin);
  app.use("/mcp", createIdentify(opts.fetch ? { fetch: opts.fetch } : {}));
  app.route("/mcp", mcpRoutes);
  app.notFound((c) =>
    errorResponse(c, 404, { code: "not_found", message: `no route for ${c.req.method} ${c.req.path}` }),
  );
  app.onError(handleError);
  return app;
}
