/** Skills and scenario hints as the API and the reading room see them. */
import { z } from "zod";

/** A skill (built-in or the user's). */
export const SkillView = z.object({
  name: z.string(),
  description: z.string(),
  body: z.string(),
  builtin: z.boolean(),
});
export type SkillView = z.infer<typeof SkillView>;

/** `GET /api/skills`. */
export const SkillList = z.object({ skills: z.array(SkillView) });
export type SkillList = z.infer<typeof SkillList>;

/** `POST /api/skills` / `PUT /api/skills/:name`: the skill as markdown with front matter. */
export const PutSkillBody = z.object({ markdown: z.string().min(1).max(10_000) }).strict();
export type PutSkillBody = z.infer<typeof PutSkillBody>;

/** A scenario hint. */
export const HintView = z.object({
  id: z.string(),
  keywords: z.array(z.string()),
  text: z.string(),
  builtin: z.boolean(),
});
export type HintView = z.infer<typeof HintView>;

/** `GET /api/hints`. */
export const HintList = z.object({ hints: z.array(HintView) });
export type HintList = z.infer<typeof HintList>;

const Keywords = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(40)
      .refine((k) => !k.includes(","), "keywords must not contain commas"),
  )
  .min(1)
  .max(12);

/** `POST /api/hints`. */
export const CreateHintBody = z.object({ keywords: Keywords, text: z.string().trim().min(1).max(600) }).strict();
export type CreateHintBody = z.infer<typeof CreateHintBody>;

/** `PATCH /api/hints/:id`. */
export const PatchHintBody = z
  .object({ keywords: Keywords.optional(), text: z.string().trim().min(1).max(600).optional() })
  .strict()
  .refine((b) => b.keywords !== undefined || b.text !== undefined, "give keywords or text");
export type PatchHintBody = z.infer<typeof PatchHintBody>;
