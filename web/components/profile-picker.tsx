/** Two selects choosing a session profile: the market (domain) and the capability; empty = default. */
import { useId } from "react";
import { useT } from "../lib/lang-store";
import { CAPABILITIES, CAPABILITY_LABEL, DOMAIN_LABEL, DOMAINS, type ProfileChoice } from "../lib/profiles";

/** The picker. */
export function ProfilePicker({
  value,
  onChange,
  disabled = false,
}: {
  value: ProfileChoice;
  onChange: (next: ProfileChoice) => void;
  disabled?: boolean;
}) {
  const { t } = useT();
  const domainId = useId();
  const capabilityId = useId();
  return (
    <span className="profile-picker" data-testid="profile-picker">
      <label htmlFor={domainId}>{t("profileDomain")}</label>
      <select
        id={domainId}
        data-testid="profile-domain"
        value={value.domain}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, domain: e.target.value })}
      >
        <option value="">{t("profileAny")}</option>
        {DOMAINS.map((d) => (
          <option key={d} value={d}>
            {t(DOMAIN_LABEL[d])}
          </option>
        ))}
      </select>
      <label htmlFor={capabilityId}>{t("profileCapability")}</label>
      <select
        id={capabilityId}
        data-testid="profile-capability"
        value={value.capability}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, capability: e.target.value })}
      >
        <option value="">{t("profileAny")}</option>
        {CAPABILITIES.map((c) => (
          <option key={c} value={c}>
            {t(CAPABILITY_LABEL[c])}
          </option>
        ))}
      </select>
    </span>
  );
}
