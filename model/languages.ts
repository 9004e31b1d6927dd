/**
 * The languages of the portal's `languages` table (seeded by server/seed/reference.ts, never written through
 * the API): users and companies pick one; the interface itself speaks it, en and fr. Shared by the browser
 * and the server: no imports from either side.
 */
export const LANGUAGES = [
  { code: 'it', en: 'Italian', native: 'Italiano' },
  { code: 'en', en: 'English', native: 'English' },
  { code: 'fr', en: 'French', native: 'Français' },
  { code: 'de', en: 'German', native: 'Deutsch' },
  { code: 'es', en: 'Spanish', native: 'Español' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
