/**
 * createApp(): the Hono app of the HTTP edge. Middleware (request id, settings, logging, body limit,
 * identity), one `onError` producing the error envelope, and one sub-app per resource.
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
import { identify } from "./http/identity";
import { analyzeRoutes } from "./routes/analyze";
import { healthRoutes } from "./routes/health";
import { marketRoutes } from "./routes/market";
import { sessionRoutes } from "./routes/sessions";

/** Largest request body accepted by the API (bytes); 5,000 bars of OHLCV fit well inside. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Builds the app. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(async (c, next) => {
    const log = createLogger(consoleSink, { requestId: c.var.requestId });
    c.set("log", log);
    c.set("config", loadConfig(c.env));
    const started = Date.now();
    await next();
    log.info("request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  });
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError("payload_too_large", 413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.route("/api/health", healthRoutes);
  app.use("/api/*", identify);
  app.route("/api/analyze", analyzeRoutes);
  app.route("/api/market", marketRoutes);
  app.route("/api/sessions", sessionRoutes);
  app.notFound((c) =>
    errorResponse(c, 404, { code: "not_found", message: `no route for ${c.req.method} ${c.req.path}` }),
  );
  app.onError(handleError);
  return app;
}
