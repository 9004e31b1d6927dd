import { useCallback } from 'react';
import { useLocaleState, useTranslate } from 'ra-core';
import type { AreaMessages } from '../../i18n';

/**
 * `translate` for a lazily loaded public page whose texts come with its code rather than with the public
 * shell (which builds its translations once, at start): a key found in `area` for the current language
 * (Italian when missing) is read there, with react-admin's `%{name}` placeholders; any other key goes to
 * react-admin's translate.
 */
export function usePageTranslate(area: AreaMessages) {
  const translate = useTranslate();
  const [locale = 'it'] = useLocaleState();
  return useCallback(
    (key: string, params: Record<string, unknown> = {}): string => {
      const find = (messages: Record<string, unknown> | undefined) =>
        key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), messages);
      const text = find(area[locale as keyof AreaMessages]) ?? find(area.it);
      if (typeof text !== 'string') return translate(key, params);
      return text.replace(/%\{(\w+)\}/g, (m, name: string) => (params[name] === undefined ? m : String(params[name])));
    },
    [area, locale, translate],
  );
}
