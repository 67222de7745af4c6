/**
 * Example questions to start with (first run). Each names something the active market data has: the
 * bundled real indices and stocks offline (上证指数, 600000 浦发银行, 创业板指 399006), a US ticker only
 * when the server serves live data.
 */
import { useHealth } from "../hooks/use-health";
import { useT } from "../lib/lang-store";
import type { StringKey } from "../lib/strings";

const OFFLINE: StringKey[] = ["exampleIndex", "exampleStock", "exampleChinext", "exampleOpen"];
const LIVE: StringKey[] = ["exampleIndex", "exampleStock", "exampleUs", "exampleOpen"];

/** The starters for the server's market data (offline until health says live). */
export function startersFor(marketData: string | undefined): StringKey[] {
  return marketData === "live" ? LIVE : OFFLINE;
}

/** Clickable example prompts. */
export function ExamplePrompts({ onPick }: { onPick: (text: string) => void }) {
  const { t } = useT();
  const { health } = useHealth();
  return (
    <section className="examples" aria-labelledby="examples-title">
      <h2 id="examples-title">{t("examplesTitle")}</h2>
      <ul>
        {startersFor(health?.marketData).map((k) => (
          <li key={k}>
            <button type="button" className="example" onClick={() => onPick(t(k))}>
              {t(k)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
