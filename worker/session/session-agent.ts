/**
 * SessionAgent: one Durable Object per chat session (agents' `Agent`). Wiring only: it owns the
 * session's SQLite (drizzle, migrated at start-up) and exposes plain public methods as DO RPC.
 */
import { Agent } from "agents";
import { drizzle, type DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import type { SessionDetail } from "../contracts/api";
import bundledMigrations from "./migrations/migrations";
import * as schema from "./schema";
import { SessionStore } from "./session-store";

/** What the worker passes when it creates a session. */
export interface SessionInit {
  id: string;
  ownerId: string;
  title: string;
  profile: string | null;
  now: number;
}

/** The session Durable Object. Class name = binding name. */
export class SessionAgent extends Agent<Env> {
  private readonly db: DrizzleSqliteDODatabase<typeof schema>;
  private readonly store: SessionStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    this.store = new SessionStore(this.db);
    void ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, bundledMigrations);
    });
  }

  /** Creates the session's record; idempotent for the same id (a retried create changes nothing). */
  async init(init: SessionInit): Promise<void> {
    this.store.init(init);
  }

  /**
   * The session as `GET /api/sessions/:id` returns it, as JSON text (serialised once here rather
   * than structured-cloned over RPC and re-encoded), or null if it was never created.
   */
  async snapshotJson(): Promise<string | null> {
    const detail: SessionDetail | null = this.store.snapshot();
    return detail ? JSON.stringify(detail) : null;
  }
}
