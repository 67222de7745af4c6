/** The reading room's shell. The chat itself arrives with the Reading room issue. */
import { useEffect, useState } from "react";
import type { Health } from "@contracts/api";
import { HealthBadge } from "./components/health-badge";
import { api } from "./lib/api-client";

/** Top-level component. */
export function App() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .health()
      .then((h) => live && setHealth(h))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, []);

  return (
    <main className="shell">
      <header>
        <h1>wyckoff-edge 阅览室</h1>
        <p className="tagline">用威科夫方法读市场 · Reading markets by the Wyckoff method</p>
      </header>
      <HealthBadge health={health} error={error} />
    </main>
  );
}
