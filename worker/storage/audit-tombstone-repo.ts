/** D1AuditTombstones: the head of each deleted session's audit chain, kept after the session is gone. */
import { desc, eq } from "drizzle-orm";
import type { Db } from "./db";
import { auditTombstones } from "./schema";

/** One deleted session's chain head. */
export interface AuditTombstone {
  sessionId: string;
  ownerId: string;
  headHash: string;
  entries: number;
  signed: boolean;
  deletedAt: number;
}

/** Audit tombstones in D1. */
export class D1AuditTombstones {
  constructor(private readonly db: Db) {}

  /** Records a deletion (a repeated delete of the same session keeps the first record). */
  async insert(t: AuditTombstone): Promise<void> {
    await this.db.insert(auditTombstones).values(t).onConflictDoNothing();
  }

  /** The owner's tombstones, newest first. */
  async list(ownerId: string, limit = 500): Promise<AuditTombstone[]> {
    return this.db
      .select()
      .from(auditTombstones)
      .where(eq(auditTombstones.ownerId, ownerId))
      .orderBy(desc(auditTombstones.deletedAt))
      .limit(limit);
  }
}
