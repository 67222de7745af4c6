/**
 * The settings page's skills: the built-ins (read-only, viewable) and the user's own, which can be
 * created, edited and deleted as markdown. Changes refresh the list the composer's `/` menu reads.
 */
import type { SkillView } from "@contracts/skills";
import { useState } from "react";
import { useSettingsT } from "../hooks/use-settings-t";
import { agentApi, errorMessage } from "../lib/api-client";
import { SKILL_TEMPLATE, skillMarkdown } from "../lib/skill-markdown";
import { refreshSkills, useSkills } from "../lib/skills-store";
import { ConfirmDialog } from "./confirm-dialog";
import { SkillEditor } from "./skill-editor";

type Editing = { kind: "new" } | { kind: "edit"; name: string } | null;

/** The skills section. */
export function SkillsManager() {
  const { t } = useSettingsT();
  const { skills, error } = useSkills();
  const [editing, setEditing] = useState<Editing>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SkillView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const save = async (markdown: string) => {
    const saved =
      editing?.kind === "edit"
        ? await agentApi.updateSkill(editing.name, markdown)
        : await agentApi.createSkill(markdown);
    setEditing(null);
    setNotice(t("skillSaved", { name: saved.name }));
    await refreshSkills();
  };
  const remove = async (name: string) => {
    setDeleting(null);
    setProblem(null);
    try {
      await agentApi.deleteSkill(name);
      setNotice(t("skillDeleted", { name }));
      await refreshSkills();
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };

  return (
    <section data-testid="skills-manager" aria-labelledby="skills-title">
      <h2 id="skills-title">{t("skillsTitle")}</h2>
      <p className="muted small">{t("skillsIntro")}</p>
      {error && (
        <p className="inline-error" role="alert">
          {t("failedLoad", { error })}
        </p>
      )}
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      {notice && (
        <p className="muted small" role="status">
          {notice}
        </p>
      )}
      <ul className="skill-list">
        {skills?.map((s) => (
          <li key={s.name} data-testid="skill-row" data-skill={s.name} data-builtin={s.builtin}>
            <div className="skill-row-head">
              <code>/{s.name}</code>
              <span className="skill-badge">{s.builtin ? t("skillBuiltin") : t("skillMine")}</span>
              <span className="skill-desc">{s.description}</span>
              <span className="skill-actions">
                <button
                  type="button"
                  className="small"
                  aria-expanded={viewing === s.name}
                  onClick={() => setViewing(viewing === s.name ? null : s.name)}
                >
                  {viewing === s.name ? t("skillHide") : t("skillView")}
                </button>
                {!s.builtin && (
                  <>
                    <button type="button" className="small" onClick={() => setEditing({ kind: "edit", name: s.name })}>
                      {t("skillEdit")}
                    </button>
                    <button type="button" className="small danger" onClick={() => setDeleting(s)}>
                      {t("skillDelete")}
                    </button>
                  </>
                )}
              </span>
            </div>
            {viewing === s.name && <pre className="skill-body">{skillMarkdown(s)}</pre>}
            {editing?.kind === "edit" && editing.name === s.name && (
              <SkillEditor initial={skillMarkdown(s)} onSave={save} onCancel={() => setEditing(null)} />
            )}
          </li>
        ))}
      </ul>
      {editing?.kind === "new" ? (
        <SkillEditor initial={SKILL_TEMPLATE} onSave={save} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" data-testid="skill-new" onClick={() => setEditing({ kind: "new" })}>
          + {t("skillNew")}
        </button>
      )}
      {deleting && (
        <ConfirmDialog
          title={t("skillDeleteConfirm", { name: deleting.name })}
          body={deleting.description}
          confirmLabel={t("skillDelete")}
          cancelLabel={t("skillCancel")}
          onConfirm={() => void remove(deleting.name)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
