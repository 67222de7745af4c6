/** The Hono environment every route sees: bindings, parsed settings, the request's deps, the caller and request id. */
import type { Config } from "../config";
import type { Logger } from "../lib/log";
import type { RequestDeps } from "../routes/request-deps";

/** Hono generics for this app. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: Config;
    /** The request's repos and ports (routes/request-deps.ts), each built on first use. */
    deps: RequestDeps;
    log: Logger;
    requestId: string;
    /** The signed-in user (set by `identify`). */
    userId: string;
    /** The API token the request came with (`AUTH_MODE=token`), else null. */
    tokenId: string | null;
  };
};
