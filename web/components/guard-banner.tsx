/** The runtime's warning put before an answer given without the data it needed (a loop-guard stop). */
import { useT } from "../lib/lang-store";
import type { BannerBlock } from "../lib/message-view";

/** A warning banner at the top of an assistant message. */
export function GuardBanner({ banner }: { banner: BannerBlock }) {
  const { t } = useT();
  return (
    <p
      className="guard-banner"
      role="note"
      aria-label={t("warning")}
      data-testid="guard-banner"
      data-guard={banner.guard}
    >
      {banner.text || t("noteGuard", { reason: banner.tool ?? banner.guard })}
    </p>
  );
}
