/** The settings page's scenario hints: shipped ones read-only; the user's own added, edited and deleted. */
import type { HintView } from "@contracts/skills";
import { useCallback, useEffect, useState } from "react";
import { useSettingsT } from "../hooks/use-settings-t";
import { agentApi, errorMessage } from "../lib/api-client";
import { HintEditor } from "./hint-editor";

/** The hints section. */
export function HintsManager() {
  const { t } = useSettingsT();
  const [hints, setHints] = useState<HintView[] | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let current = true;
    agentApi.listHints().then(
      (list) => current && setHints(list),
      (e: unknown) => current && setProblem(t("failedLoad", { error: errorMessage(e) })),
    );
    return () => {
      current = false;
    };
  }, [version, t]);

  const remove = async (id: string) => {
    setProblem(null);
    try {
      await agentApi.deleteHint(id);
      reload();
    } catch (e) {
      setProblem(errorMessage(e));
    }
  };

  return (
    <section data-testid="hints-manager" aria-labelledby="hints-title">
      <h2 id="hints-title">{t("hintsTitle")}</h2>
      <p className="muted small">{t("hintsIntro")}</p>
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
      <ul className="hint-list">
        {hints?.map((h) => (
          <li key={h.id} data-testid="hint-row" data-hint={h.id} data-builtin={h.builtin}>
            {editing === h.id ? (
              <HintEditor
                initial={h}
                submitLabel={t("hintSave")}
                onSave={async (body) => {
                  await agentApi.updateHint(h.id, body);
                  setEditing(null);
                  reload();
                }}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <div className="hint-row">
                <p className="hint-keywords">
                  {h.keywords.map((k) => (
                    <code key={k}>{k}</code>
                  ))}
                  {h.builtin && <span className="skill-badge">{t("hintShipped")}</span>}
                </p>
                <p className="hint-text">{h.text}</p>
                {!h.builtin && (
                  <p className="skill-actions">
                    <button type="button" className="small" onClick={() => setEditing(h.id)}>
                      {t("hintEdit")}
                    </button>
                    <button type="button" className="small danger" onClick={() => void remove(h.id)}>
                      {t("hintDelete")}
                    </button>
                  </p>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
      <h3 className="small">{t("hintAdd")}</h3>
      <HintEditor
        initial={{ keywords: [], text: "" }}
        submitLabel={t("hintAdd")}
        onSave={async (body) => {
          await agentApi.createHint(body);
          reload();
        }}
      />
    </section>
  );
}
