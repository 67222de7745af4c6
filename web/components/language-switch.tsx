/** Switches the UI between Chinese and English. */
import { setLang, useT } from "../lib/lang-store";

/** A two-option language toggle. */
export function LanguageSwitch() {
  const { lang, t } = useT();
  return (
    <div className="lang-switch" role="group" aria-label={t("language")}>
      <button type="button" aria-pressed={lang === "zh"} onClick={() => setLang("zh")}>
        中文
      </button>
      <button type="button" aria-pressed={lang === "en"} onClick={() => setLang("en")}>
        EN
      </button>
    </div>
  );
}
