/** Browser entry: mounts the reading room. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { preloadChart } from "./components/price-chart";
import { prefetchBars } from "./hooks/use-bars";
import { analysisEnd, parseRoute } from "./lib/router";
import { ANALYSIS_PAGE_DAYS } from "./routes/analysis-page";
import "./styles.css";
import "./desk.css";

// A chart page needs its bars and the chart library: ask for both before React mounts, side by side.
const first = parseRoute(location.pathname);
if (first.page === "analysis") {
  prefetchBars(first.symbol, ANALYSIS_PAGE_DAYS, analysisEnd(location.search));
  preloadChart();
}

const root = document.getElementById("root");
if (!root) throw new Error("#root missing from index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
