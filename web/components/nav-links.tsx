/** Top-bar links to the portfolio and settings pages. */
import { useIdT } from "../lib/identity-strings";
import { navigate } from "../lib/router";
import "../identity.css";

function Link({ to, label }: { to: string; label: string }) {
  return (
    <a
      href={to}
      onClick={(e) => {
        e.preventDefault();
        navigate(to);
      }}
    >
      {label}
    </a>
  );
}

/** The links. */
export function NavLinks() {
  const { t, lang } = useIdT();
  return (
    <nav className="nav-links" aria-label="account">
      <Link to="/portfolio" label={t("portfolio")} />
      <Link to="/memory" label={lang === "zh" ? "记忆" : "Memory"} />
      <Link to="/settings" label={t("settings")} />
    </nav>
  );
}
