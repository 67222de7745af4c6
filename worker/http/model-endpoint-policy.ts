/**
 * Where a user's own model may live: the same destinations as `web_fetch` (`lib/url-policy.ts`:
 * public http(s) hosts, no credentials in the URL), except that in `AUTH_MODE=local` — one owner on
 * their own machine — loopback stays allowed, as it is for the operator's settings (a local model
 * server, the scripted test model).
 */
import { checkDestination, classifyHost } from "../lib/url-policy";
import { err, ok, type Result } from "../lib/result";

/** Checks a model base URL; the message names the field and the reason. */
export function checkModelBaseUrl(
  raw: string,
  authMode: "local" | "token" | "access",
  field = "baseURL",
): Result<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return err("invalid_input", `${field}: not a URL`);
  }
  if (url.search !== "" || url.hash !== "") return err("invalid_input", `${field}: no query or fragment allowed`);
  const loopbackAllowed =
    authMode === "local" && (classifyHost(url.hostname) === "loopback" || url.hostname === "localhost");
  const checked = checkDestination(
    url,
    loopbackAllowed ? [`${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`] : [],
  );
  if (!checked.ok) {
    const kind = classifyHost(url.hostname);
    return err(
      "invalid_input",
      kind === "public"
        ? `${field}: ${checked.error.message}`
        : `${field}: ${url.hostname} is a ${kind} address; a model endpoint must be a public host${authMode === "local" ? " (or loopback)" : ""}`,
    );
  }
  return ok(url.toString().replace(/\/+$/, ""));
}
