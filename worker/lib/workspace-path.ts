/**
 * The path jail of the per-user file workspace (pure policy, core ring). A workspace path is
 * relative, `/`-separated, NFC, with no `.`/`..` or empty segments, no backslashes, colons, control
 * characters (NUL included) or percent-escapes (so `%2e%2e%2f` cannot smuggle a traversal past a
 * later decode). Anything else is refused rather than "cleaned", so what the model asked for is
 * what it gets.
 */
import { err, ok, type Result } from "./result";

/** Longest accepted path (characters). */
export const MAX_PATH_CHARS = 256;
/** Deepest accepted folder nesting. */
export const MAX_PATH_DEPTH = 8;

/**
 * Validates a file path (`reports/2026-05.md`). With `{ folder: true }` an empty string (the root)
 * and a trailing `/` are accepted too (list prefixes).
 */
export function checkWorkspacePath(raw: string, opts: { folder?: boolean } = {}): Result<string> {
  const refuse = (why: string) => err("invalid_input", `path ${JSON.stringify(raw.slice(0, 80))} refused: ${why}`);
  const path = raw.normalize("NFC");
  if (opts.folder && (path === "" || path === "/")) return ok("");
  if (path === "") return refuse("empty");
  if (path.length > MAX_PATH_CHARS) return refuse(`longer than ${MAX_PATH_CHARS} characters`);
  // oxlint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(path)) return refuse("control characters (NUL included) are not allowed");
  if (path.includes("\\")) return refuse("backslashes are not allowed; use /");
  if (/%[0-9a-f]{2}/i.test(path)) return refuse("percent-encoded characters are not allowed");
  if (path.includes(":")) return refuse("colons (drive letters, URLs) are not allowed");
  if (path.startsWith("/") || path.startsWith("~"))
    return refuse("absolute paths are not allowed; paths are relative to your workspace");
  const body = opts.folder && path.endsWith("/") ? path.slice(0, -1) : path;
  const segments = body.split("/");
  if (segments.length > MAX_PATH_DEPTH) return refuse(`deeper than ${MAX_PATH_DEPTH} levels`);
  for (const s of segments) {
    if (s === "") return refuse("empty segments (//) are not allowed");
    if (s === "." || s === "..") return refuse("'.' and '..' segments are not allowed");
    if (s.trim() !== s) return refuse("segments may not start or end with spaces");
  }
  return ok(opts.folder ? `${body}/` : body);
}
