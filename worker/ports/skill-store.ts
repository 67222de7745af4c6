/** Port: a user's skills (built-ins plus their own), for the prompt reminder and `execute_skill`. */

/** A skill as stored. */
export interface StoredSkill {
  name: string;
  description: string;
  body: string;
  builtin: boolean;
}

/** Reads skills. */
export interface SkillStore {
  list(userId: string): Promise<StoredSkill[]>;
  get(userId: string, name: string): Promise<StoredSkill | null>;
}
