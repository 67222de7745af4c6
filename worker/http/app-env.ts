/** The Hono environment every route sees: bindings, parsed settings, the caller and request id. */
import type { Config } from "../config";
import type { Logger } from "../lib/log";

/** Hono generics for this app. */
export type AppEnv = {
  Bindings: Env;
  Variables: { config: Config; log: Logger; requestId: string; userId: string };
};
