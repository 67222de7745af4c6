/**
 * `/analysis/:symbol`: the full-size chart and reading of one symbol (bars and analysis from the
 * market route), with daily/weekly and MA/volume controls, a symbol search, and a shorter chart on a
 * phone.
 */
import { useState } from "react";
import { AnalysisSummary } from "../components/analysis-summary";
import { PriceChart } from "../components/price-chart";
import { useBars } from "../hooks/use-bars";
import { useDeskT } from "../lib/desk-strings";
import { useT } from "../lib/lang-store";
import { analysisEnd, analysisPath, navigate } from "../lib/router";

function SymbolSearch({ initial }: { initial: string }) {
  const { t } = useDeskT();
  const [q, setQ] = useState(initial);
  return (
    <form
      className="symbol-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const s = q.trim();
        if (s) navigate(analysisPath(s));
      }}
    >
      <input
        type="search"
        value={q}
        aria-label={t("symbolSearch")}
        placeholder={t("symbolSearch")}
        data-testid="symbol-search"
        onChange={(e) => setQ(e.target.value)}
      />
      <button type="submit" className="small">
        {t("go")}
      </button>
    </form>
  );
}

/** Daily bars the chart page shows. */
export const ANALYSIS_PAGE_DAYS = 250;

/** The analysis page. */
export function AnalysisPage({ symbol }: { symbol: string }) {
  const { t } = useT();
  const end = analysisEnd(location.search);
  const { data, error } = useBars(symbol, ANALYSIS_PAGE_DAYS, false, end);
  const phone = typeof window !== "undefined" && window.innerWidth < 600;
  return (
    <div className="analysis-page">
      <p>
        <button type="button" className="link-button" onClick={() => history.back()}>
          ← {t("backToChat")}
        </button>
      </p>
      <SymbolSearch initial={symbol} />
      <h1>{t("analysisTitle", { symbol: data ? `${data.symbol.name} (${data.symbol.id})` : symbol })}</h1>
      {error && (
        <p className="inline-error" role="alert">
          {t("chartFailed", { error })}
        </p>
      )}
      {!data && !error && <p className="muted">{t("chartLoading")}</p>}
      {data?.analysis ? (
        <>
          <PriceChart analysis={data.analysis} bars={data.bars} height={phone ? 340 : 480} controls />
          <AnalysisSummary analysis={data.analysis} output={{ source: data.provenance }} chart={false} />
        </>
      ) : (
        data && <p className="muted">{data.analysisNote}</p>
      )}
    </div>
  );
}
