/** `/analysis/:symbol`: the full-size chart and reading of one symbol (bars and analysis from the market route). */
import { AnalysisSummary } from "../components/analysis-summary";
import { PriceChart } from "../components/price-chart";
import { useBars } from "../hooks/use-bars";
import { useT } from "../lib/lang-store";

/** The analysis page. */
export function AnalysisPage({ symbol }: { symbol: string }) {
  const { t } = useT();
  const { data, error } = useBars(symbol, 250);
  return (
    <div className="analysis-page">
      <p>
        <button type="button" className="link-button" onClick={() => history.back()}>
          ← {t("backToChat")}
        </button>
      </p>
      <h1>{t("analysisTitle", { symbol: data ? `${data.symbol.name} (${data.symbol.id})` : symbol })}</h1>
      {error && (
        <p className="inline-error" role="alert">
          {t("chartFailed", { error })}
        </p>
      )}
      {!data && !error && <p className="muted">{t("chartLoading")}</p>}
      {data?.analysis ? (
        <>
          <PriceChart analysis={data.analysis} bars={data.bars} height={480} />
          <AnalysisSummary analysis={data.analysis} output={{ source: data.provenance }} chart={false} />
        </>
      ) : (
        data && <p className="muted">{data.analysisNote}</p>
      )}
    </div>
  );
}
