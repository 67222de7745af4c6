/** Cycles the colour theme: system → dark → light → system. */
import { useDeskT } from "../lib/desk-strings";
import { setTheme, useTheme, type Theme } from "../lib/theme-store";

const NEXT: Record<Theme, Theme> = { auto: "dark", dark: "light", light: "auto" };
const ICON: Record<Theme, string> = { auto: "◐", dark: "☾", light: "☀" };

/** The switch in the top bar. */
export function ThemeSwitch() {
  const { t } = useDeskT();
  const theme = useTheme();
  const label = t("themeLabel", {
    mode: t(theme === "auto" ? "themeAuto" : theme === "dark" ? "themeDark" : "themeLight"),
  });
  return (
    <button
      type="button"
      className="icon-button theme-switch"
      data-testid="theme-switch"
      data-theme-choice={theme}
      aria-label={label}
      title={label}
      onClick={() => setTheme(NEXT[theme])}
    >
      {ICON[theme]}
    </button>
  );
}
