/** The server's health (model, market data), loaded once per page. */
import type { Health } from "@contracts/api";
import { useEffect, useState } from "react";
import { api, errorMessage } from "../lib/api-client";

/** Health, or the reason it could not be read. */
export function useHealth(): { health: Health | null; error: string | null } {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .health()
      .then((h) => live && setHealth(h))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, []);
  return { health, error };
}
