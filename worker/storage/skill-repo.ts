/** D1SkillRepo: users' own skills in D1 plus the built-ins from code (the `SkillStore` port). */
import { and, asc, eq } from "drizzle-orm";
import type { SkillStore, StoredSkill } from "../ports/skill-store";
import { BUILTIN_SKILLS } from "../runtime/skills/builtin";
import type { Skill } from "../runtime/skills/skill";
import type { Db } from "./db";
import { userSkills } from "./schema";

/** The user's own skill rows by name: one query, so a turn's set-up can put it in a D1 batch. */
export function ownSkillsQuery(db: Db, userId: string) {
  return db.select().from(userSkills).where(eq(userSkills.ownerId, userId)).orderBy(asc(userSkills.name));
}

/** The skills a user sees: the built-ins, then their own rows (`ownSkillsQuery`). */
export function skillsFrom(own: readonly (typeof userSkills.$inferSelect)[]): StoredSkill[] {
  return [
    ...BUILTIN_SKILLS,
    ...own.map((r) => ({ name: r.name, description: r.description, body: r.body, builtin: false })),
  ];
}

/** Skills in D1. */
export class D1SkillRepo implements SkillStore {
  constructor(private readonly db: Db) {}

  async list(userId: string): Promise<StoredSkill[]> {
    return skillsFrom(await ownSkillsQuery(this.db, userId));
  }

  async get(userId: string, name: string): Promise<StoredSkill | null> {
    const builtin = BUILTIN_SKILLS.find((s) => s.name === name);
    if (builtin) return builtin;
    const row = await this.db.query.userSkills.findFirst({
      where: and(eq(userSkills.ownerId, userId), eq(userSkills.name, name)),
    });
    return row ? { name: row.name, description: row.description, body: row.body, builtin: false } : null;
  }

  /** Creates or replaces the user's skill; returns false when it would shadow a built-in. */
  async put(userId: string, skill: Skill, now: number): Promise<"created" | "updated" | "builtin"> {
    if (BUILTIN_SKILLS.some((s) => s.name === skill.name)) return "builtin";
    const existing = await this.db.query.userSkills.findFirst({
      where: and(eq(userSkills.ownerId, userId), eq(userSkills.name, skill.name)),
    });
    await this.db
      .insert(userSkills)
      .values({
        ownerId: userId,
        name: skill.name,
        description: skill.description,
        body: skill.body,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [userSkills.ownerId, userSkills.name],
        set: { description: skill.description, body: skill.body, updatedAt: now },
      });
    return existing ? "updated" : "created";
  }

  /** Deletes the user's skill; false when there was none. */
  async remove(userId: string, name: string): Promise<boolean> {
    const rows = await this.db
      .delete(userSkills)
      .where(and(eq(userSkills.ownerId, userId), eq(userSkills.name, name)))
      .returning();
    return rows.length > 0;
  }
}
