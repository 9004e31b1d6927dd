import { useLocaleState, useTranslate } from 'ra-core';
import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { LOCALES } from '../i18n';

/** EN / IT / FR; the choice is kept by react-admin's store in local storage. */
export function LanguageSwitcher() {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={locale}
      onChange={(_e, v) => v && setLocale(v)}
      aria-label={translate('portal.language')}
      sx={{ bgcolor: 'background.paper' }}
    >
      {['en', 'it', 'fr'].map((l) => (
        <ToggleButton key={l} value={l} aria-label={l} data-testid={`lang-${l}`} sx={{ px: 1.2, py: 0.4, fontWeight: 500 }}>
          {LOCALES.find((x) => x.locale === l)!.name}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
