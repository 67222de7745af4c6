/** The reading room: header, offline banner, sessions sidebar and the page of the current route. */
import { lazy, Suspense, useState } from "react";
import { HealthBadge } from "./components/health-badge";
import { LanguageSwitch } from "./components/language-switch";
import { MarketSyncStatus } from "./components/market-sync-status";
import { OfflineBanner } from "./components/offline-banner";
import { SessionSidebar } from "./components/session-sidebar";
import { useHealth } from "./hooks/use-health";
import { useT } from "./lib/lang-store";
import { navigate, parseRoute, usePathname } from "./lib/router";
import { AnalysisPage } from "./routes/analysis-page";
import { ChatPage } from "./routes/chat-page";
import { HomePage } from "./routes/home-page";
import { SharePage } from "./routes/share-page";
import { NavLinks } from "./components/nav-links";
import { ThemeSwitch } from "./components/theme-switch";

// Settings (tokens, shares, usage, skills and hints) is visited rarely: its code loads on demand.
const PortfolioPage = lazy(() => import("./routes/portfolio-page").then((m) => ({ default: m.PortfolioPage })));
const SettingsPage = lazy(() => import("./routes/settings-page").then((m) => ({ default: m.SettingsPage })));
import { MemoryPanel } from "./components/memory-panel";

/** Top-level component. */
export function App() {
  const { t } = useT();
  const { health, error } = useHealth();
  const route = parseRoute(usePathname());
  const [menuOpen, setMenuOpen] = useState(false);
  // A share link is read-only and may be opened by someone who is not signed in: no sidebar, no nav.
  if (route.page === "share") return <SharePage key={route.token} token={route.token} />;
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t("composerLabel")}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="icon-button menu-button"
          aria-label={t("menu")}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ☰
        </button>
        <a
          className="brand"
          href="/"
          onClick={(e) => {
            e.preventDefault();
            navigate("/");
          }}
        >
          wyckoff-edge <span className="brand-sub">{t("tagline")}</span>
        </a>
        <NavLinks />
        <HealthBadge health={health} error={error} />
        <ThemeSwitch />
        <LanguageSwitch />
      </header>
      <OfflineBanner health={health} />
      <MarketSyncStatus health={health} />
      <div className="layout">
        <SessionSidebar
          activeId={route.page === "chat" ? route.sessionId : null}
          open={menuOpen}
          onClose={() => setMenuOpen(false)}
        />
        <main id="main" className="page">
          {route.page === "chat" ? (
            <ChatPage key={route.sessionId} sessionId={route.sessionId} />
          ) : route.page === "analysis" ? (
            <AnalysisPage key={route.symbol} symbol={route.symbol} />
          ) : route.page === "portfolio" ? (
            <Suspense fallback={<p className="page-message muted">{t("loading")}</p>}>
              <PortfolioPage />
            </Suspense>
          ) : route.page === "settings" ? (
            <Suspense fallback={<p className="page-message muted">{t("loading")}</p>}>
              <SettingsPage />
            </Suspense>
          ) : route.page === "memory" ? (
            <MemoryPanel />
          ) : (
            <HomePage />
          )}
        </main>
      </div>
    </div>
  );
}
