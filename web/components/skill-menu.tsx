/** The `/` menu above the composer: matching skills (name and description), one highlighted. */
import type { SkillItem } from "../lib/slash-menu";
import { useT } from "../lib/lang-store";

/** The listbox the composer's textarea controls (`aria-activedescendant` points into it). */
export function SkillMenu({
  id,
  items,
  active,
  loading,
  onPick,
}: {
  id: string;
  items: readonly SkillItem[];
  active: number;
  loading: boolean;
  onPick: (name: string) => void;
}) {
  const { t } = useT();
  return (
    <div className="skill-menu" data-testid="skill-menu">
      <ul id={id} role="listbox" aria-label={t("skillsMenu")}>
        {items.map((s, i) => (
          <li
            key={s.name}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? "skill-option skill-option--active" : "skill-option"}
            data-testid="skill-option"
            // keep the focus in the textarea
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(s.name)}
          >
            <code>/{s.name}</code>
            {s.builtin && <span className="skill-badge">{t("skillBuiltin")}</span>}
            <span className="skill-desc">{s.description}</span>
          </li>
        ))}
      </ul>
      {items.length === 0 && <p className="muted small">{loading ? t("loading") : t("skillsMenuEmpty")}</p>}
      <p className="skill-menu-hint muted small" aria-hidden="true">
        {t("skillsMenuHint")}
      </p>
    </div>
  );
}
