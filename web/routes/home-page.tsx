/** The first page: what the agent does, example prompts, and a composer that opens a new session. */
import { useState } from "react";
import { Composer } from "../components/composer";
import { ExamplePrompts } from "../components/example-prompts";
import { ProfilePicker } from "../components/profile-picker";
import { errorMessage } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import { setPendingMessage } from "../lib/pending-message";
import { profileOf, type ProfileChoice } from "../lib/profiles";
import { chatPath, navigate } from "../lib/router";
import { createSession } from "../lib/sessions-store";

/** Home. */
export function HomePage() {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [choice, setChoice] = useState<ProfileChoice>({ domain: "", capability: "" });
  const start = async (text: string) => {
    setBusy(true);
    setError(null);
    try {
      const id = await createSession(profileOf(choice));
      setPendingMessage(id, text);
      navigate(chatPath(id));
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <div className="home">
      <div className="home-intro">
        <h1>{t("appName")}</h1>
        <p className="muted">{t("welcome")}</p>
        <ExamplePrompts onPick={(text) => void start(text)} />
        {error && (
          <p className="inline-error" role="alert">
            {t("sendFailed", { error })}
          </p>
        )}
      </div>
      <div className="home-profile">
        <span className="muted small">{t("profile")}:</span>
        <ProfilePicker value={choice} onChange={setChoice} disabled={busy} />
        <span className="muted small">{t("profileHint")}</span>
      </div>
      <Composer
        busy={busy ? t("busyConnecting") : null}
        running={false}
        onSend={(text) => void start(text)}
        onStop={() => {}}
      />
    </div>
  );
}
