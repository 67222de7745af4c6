/** Example questions to start with (first run). */
import { useT } from "../lib/lang-store";
import type { StringKey } from "../lib/strings";

const EXAMPLES: StringKey[] = ["example1", "example2", "example3", "example4"];

/** Clickable example prompts. */
export function ExamplePrompts({ onPick }: { onPick: (text: string) => void }) {
  const { t } = useT();
  return (
    <section className="examples" aria-labelledby="examples-title">
      <h2 id="examples-title">{t("examplesTitle")}</h2>
      <ul>
        {EXAMPLES.map((k) => (
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
