/**
 * The API token the reading room sends as `Authorization: Bearer …` when the server runs with
 * `AUTH_MODE=token`. Kept in this browser's localStorage; set and cleared from the settings page.
 */

const KEY = "wyckoff.apiToken";

/** The stored token, or null. */
export function authToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Stores (or, with null/empty, forgets) the token. */
export function setAuthToken(token: string | null): void {
  try {
    if (token && token.trim() !== "") localStorage.setItem(KEY, token.trim());
    else localStorage.removeItem(KEY);
  } catch {
    // storage unavailable (private mode): the token lasts for this page only
  }
}
