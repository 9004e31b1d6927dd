import { describe, expect, it } from 'vitest';
import { buildI18nProvider, loadLocale, type AreaMessages } from '.';

const area: AreaMessages = {
  it: { demo: { hello: 'Ciao %{name}' } },
  en: { demo: { hello: 'Hello %{name}' } },
  fr: { demo: { hello: 'Bonjour %{name}' } },
};

describe('translations (issue 18: languages and areas loaded on demand)', () => {
  it('merges react-admin, the shell and the areas in the start language', async () => {
    await loadLocale('en'); // tests/setup/jsdom.ts loaded it already: a second call is a no-op
    const { provider } = buildI18nProvider([area], 'en');
    expect(provider.getLocale()).toBe('en');
    expect(provider.translate('ra.action.save')).toBe('Save');
    expect(provider.translate('login.quote_link')).toBe('Get a quote without signing in');
    expect(provider.translate('demo.hello', { name: 'Ada' })).toBe('Hello Ada');
  });

  it('adds an area later, in the current language and in the next one chosen', async () => {
    const i18n = buildI18nProvider([], 'it');
    expect(i18n.provider.translate('login.quote_link')).toBe('Calcola un preventivo senza accedere');
    expect(i18n.provider.translate('demo.hello', { name: 'Ada' })).toBe('demo.hello'); // not there yet
    await i18n.addMessages(area);
    expect(i18n.provider.translate('demo.hello', { name: 'Ada' })).toBe('Ciao Ada');
    await i18n.provider.changeLocale('fr');
    expect(i18n.provider.translate('demo.hello', { name: 'Ada' })).toBe('Bonjour Ada');
    expect(i18n.provider.translate('ra.action.save')).toBe('Enregistrer');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('starts in Italian for an unknown language', () => {
    const { provider } = buildI18nProvider([], 'de');
    expect(provider.getLocale()).toBe('it');
    expect(provider.translate('ra.action.save')).toBe('Salva');
  });
});
