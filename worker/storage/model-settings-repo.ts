/** D1ModelSettings: each user's own model endpoint (Settings → Model), keys sealed by `KeyBox`. */
import { eq } from "drizzle-orm";
import type { Db } from "./db";
import { userModelSettings } from "./schema";

/** A stored row (keys still sealed). */
export type ModelSettingsRow = typeof userModelSettings.$inferSelect;

/** The user's settings row (none or one): one query, so a turn's set-up can put it in a D1 batch. */
export function settingsQuery(db: Db, ownerId: string) {
  return db.select().from(userModelSettings).where(eq(userModelSettings.ownerId, ownerId)).limit(1);
}

/** The user's model settings in D1. */
export class D1ModelSettings {
  constructor(private readonly db: Db) {}

  async get(ownerId: string): Promise<ModelSettingsRow | null> {
    return (await settingsQuery(this.db, ownerId))[0] ?? null;
  }

  /** Creates or replaces the user's row. */
  async put(row: ModelSettingsRow): Promise<void> {
    const { ownerId: _, ...rest } = row;
    await this.db
      .insert(userModelSettings)
      .values(row)
      .onConflictDoUpdate({ target: userModelSettings.ownerId, set: rest });
  }

  /** Deletes the user's row; true when there was one. */
  async delete(ownerId: string): Promise<boolean> {
    const gone = await this.db
      .delete(userModelSettings)
      .where(eq(userModelSettings.ownerId, ownerId))
      .returning({ ownerId: userModelSettings.ownerId });
    return gone.length > 0;
  }
}
