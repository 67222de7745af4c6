/**
 * Who is calling. `local` mode (the default) has one owner and no login, so it serves loopback
 * clients only: a request whose `CF-Connecting-IP` is not a loopback address is refused (on
 * Cloudflare every request carries it). The `token` and `access` modes belong to the Identity issue;
 * until they land, a server set to them refuses every API request with 401 and says why.
 */
import { createMiddleware } from "hono/factory";
import { AppError } from "../lib/app-error";
import { isLoopback } from "../lib/net";
import type { AppEnv } from "./app-env";

/** The single owner of a `local`-mode installation. */
export const LOCAL_OWNER = "local";

/** Sets `c.var.userId` or refuses the request. */
export const identify = createMiddleware<AppEnv>(async (c, next) => {
  const mode = c.var.config.authMode;
  if (mode !== "local") {
    throw new AppError(
      "unauthorized",
      401,
      `AUTH_MODE=${mode} is not supported by this build yet; use AUTH_MODE=local`,
    );
  }
  const client = c.req.header("cf-connecting-ip");
  if (client !== undefined && !isLoopback(client)) {
    throw new AppError(
      "forbidden",
      403,
      "AUTH_MODE=local serves loopback clients only; configure AUTH_MODE=token or access",
    );
  }
  c.set("userId", LOCAL_OWNER);
  await next();
});
