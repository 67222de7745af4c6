/** Skills (`/api/skills`) and scenario hints (`/api/hints`) of the caller; built-ins are read-only. */
import { Hono, type Context } from "hono";
import { CreateHintBody, PatchHintBody, PutSkillBody, type HintList, type SkillList } from "../contracts/skills";
import { AppError } from "../lib/app-error";
import { KeyParam, SkillNameParam } from "../contracts/params";
import { pathParam } from "../http/params";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/read-json";
import { parseSkill } from "../runtime/skills/skill";
import { newId } from "../http/secrets";

async function putSkill(c: Context<AppEnv>, expectedName?: string): Promise<Response> {
  const body = await readJson(c, PutSkillBody);
  const parsed = parseSkill(body.markdown);
  if (!parsed.ok) throw new AppError("invalid_input", 400, `skill rejected: ${parsed.error.message}`);
  if (expectedName !== undefined && parsed.value.name !== expectedName)
    throw new AppError(
      "invalid_input",
      400,
      `front matter name "${parsed.value.name}" does not match the URL (${expectedName})`,
    );
  const outcome = await c.var.deps.skills.put(c.var.userId, parsed.value, Date.now());
  if (outcome === "builtin")
    throw new AppError("conflict", 409, `"${parsed.value.name}" is a built-in skill; choose another name`);
  return c.json({ ...parsed.value, builtin: false }, outcome === "created" ? 201 : 200);
}

/** Skill routes, mounted at /api/skills. */
export const skillRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ skills: await c.var.deps.skills.list(c.var.userId) } satisfies SkillList))
  .post("/", (c) => putSkill(c))
  .put("/:name", (c) => putSkill(c, pathParam(c, "name", SkillNameParam)))
  .delete("/:name", async (c) => {
    const name = pathParam(
      c,
      "name",
      SkillNameParam,
      (raw) => new AppError("not_found", 404, `no skill of yours named ${raw}`),
    );
    if (!(await c.var.deps.skills.remove(c.var.userId, name)))
      throw new AppError("not_found", 404, `no skill of yours named ${name}`);
    return c.body(null, 204);
  });

const noHint = () => new AppError("not_found", 404, "no hint of yours with that id (shipped hints are read-only)");

/** Hint routes, mounted at /api/hints. */
export const hintRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ hints: await c.var.deps.hints.list(c.var.userId) } satisfies HintList))
  .post("/", async (c) => {
    const body = await readJson(c, CreateHintBody);
    const id = newId("h_");
    return c.json(await c.var.deps.hints.create(c.var.userId, id, body.keywords, body.text, Date.now()), 201);
  })
  .patch("/:id", async (c) => {
    const body = await readJson(c, PatchHintBody);
    const hint = await c.var.deps.hints.update(c.var.userId, pathParam(c, "id", KeyParam, noHint), body);
    if (!hint) throw new AppError("not_found", 404, "no hint of yours with that id (shipped hints are read-only)");
    return c.json(hint);
  })
  .delete("/:id", async (c) => {
    if (!(await c.var.deps.hints.remove(c.var.userId, pathParam(c, "id", KeyParam, noHint))))
      throw new AppError("not_found", 404, "no hint of yours with that id (shipped hints are read-only)");
    return c.body(null, 204);
  });
