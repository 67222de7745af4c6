/**
 * Cloudflare Access: verifies the `Cf-Access-Jwt-Assertion` JWT (or the `CF_Authorization` cookie)
 * with jose against the team's key set, checking signature, issuer (the team domain), audience (the
 * application's AUD tag) and expiry. The key set is fetched through an injected `fetch` and cached
 * per verifier, so tests serve keys from a local key set.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from "jose";

/** Access settings (from `Config.access`). */
export interface AccessSettings {
  issuer: string;
  audience: string;
  jwksUrl: string;
}

/** The verified caller: their email (people) or `common_name`/`sub` (service tokens). */
export type AccessVerdict = { ok: true; user: string } | { ok: false; reason: string };

/** Verifies Access JWTs for one set of settings. */
export type AccessVerifier = (jwt: string) => Promise<AccessVerdict>;

/** Clock skew tolerated on `exp`/`nbf` (seconds). */
const CLOCK_TOLERANCE_S = 30;

/** Builds a verifier; the remote key set (and its cache) lives as long as the verifier. */
export function createAccessVerifier(settings: AccessSettings, fetchImpl: typeof fetch): AccessVerifier {
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(settings.jwksUrl), {
    [customFetch]: (url, init) => fetchImpl(url, init),
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });
  return async (jwt) => {
    try {
      const { payload } = await jwtVerify(jwt, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp"],
      });
      const user =
        (typeof payload["email"] === "string" && payload["email"]) ||
        (typeof payload["common_name"] === "string" && payload["common_name"]) ||
        payload.sub;
      return user ? { ok: true, user: user.toLowerCase() } : { ok: false, reason: "token names no user" };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, reason: "access token expired" };
      if (error instanceof errors.JOSEError) return { ok: false, reason: "access token invalid" };
      throw error;
    }
  };
}

/** The Access JWT of a request: the header Access adds, else the cookie it sets. */
export function accessJwtOf(headers: { header(name: string): string | undefined }): string | undefined {
  const direct = headers.header("cf-access-jwt-assertion");
  if (direct) return direct;
  const cookie = headers.header("cookie") ?? "";
  const m = cookie.match(/(?:^|;\s*)CF_Authorization=([^;]+)/);
  return m?.[1];
}
