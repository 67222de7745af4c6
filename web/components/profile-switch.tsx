/**
 * The session header's profile: the active one in words, and a small form to switch it (or reset it
 * to the default) on the open session. The switch applies from the next turn.
 */
import { useState } from "react";
import { errorMessage } from "../lib/api-client";
import { useT } from "../lib/lang-store";
import { choiceOf, describeProfile, profileOf } from "../lib/profiles";
import { ProfilePicker } from "./profile-picker";

/** The profile badge and its switch. */
export function ProfileSwitch({
  profile,
  onSwitch,
}: {
  profile: string | null;
  onSwitch: (profile: string | null) => Promise<void>;
}) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState(choiceOf(profile));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const apply = async (next: string | null) => {
    setSaving(true);
    setError(null);
    try {
      await onSwitch(next);
      setOpen(false);
    } catch (e) {
      setError(t("profileFailed", { error: errorMessage(e) }));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="profile-switch">
      <button
        type="button"
        className="profile-badge"
        data-testid="session-profile"
        data-profile={profile ?? ""}
        aria-expanded={open}
        title={t("profileChange")}
        onClick={() => {
          setChoice(choiceOf(profile));
          setError(null);
          setOpen(!open);
        }}
      >
        {t("profile")}: <strong>{describeProfile(profile, t)}</strong> <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <form
          className="profile-form"
          aria-label={t("profileChange")}
          onSubmit={(e) => {
            e.preventDefault();
            void apply(profileOf(choice));
          }}
        >
          <ProfilePicker value={choice} onChange={setChoice} disabled={saving} />
          <button type="submit" className="primary small" disabled={saving} data-testid="profile-apply">
            {t("profileApply")}
          </button>
          <button
            type="button"
            className="small"
            disabled={saving || profile === null}
            onClick={() => void apply(null)}
          >
            {t("profileReset")}
          </button>
          <p className="muted small">{t("profileHint")}</p>
          {error && (
            <p className="inline-error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
