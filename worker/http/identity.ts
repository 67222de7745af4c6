/**
 * Who is calling. `local` mode (the default) has one owner and no login. The `token` and `access`
 * modes belong to the Identity issue; until they land, a server set to them refuses every API
 * request with 401 and says why, rather than serving data unauthenticated.
 */
import { createMiddleware } from "hono/factory";
import { AppError } from "../lib/app-error";
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
  c.set("userId", LOCAL_OWNER);
  await next();
});
