/** Shows whether the server is up, which model answers and where market data comes from. */
import type { Health } from "@contracts/api";

/** A compact status line for the reading room's header. */
export function HealthBadge({ health, error }: { health: Health | null; error: string | null }) {
  if (error) {
    return (
      <p className="health health--down" role="status" data-testid="health">
        服务器不可用 · server unavailable: {error}
      </p>
    );
  }
  if (!health) {
    return (
      <p className="health" role="status" data-testid="health">
        连接中… · connecting…
      </p>
    );
  }
  return (
    <p className="health health--up" role="status" data-testid="health">
      <span className="dot" aria-hidden="true" /> v{health.version} · 模型 model: <strong>{health.model.id}</strong>
      {health.model.offline ? " (离线规则模型 · offline rule model)" : ""} · 行情 market data:{" "}
      <strong>{health.marketData}</strong>
    </p>
  );
}
