/**
 * The languages of the portal's `languages` table (seeded by server/seed/reference.ts, never written through
 * the API): users and companies pick one, and only the languages the interface and the mail speak: it, en,
 * fr (issue 35; migration 0027 moved German and Spanish users and companies to English). Shared by the
 * browser and the server: no imports from either side.
 */
export const LANGUAGES = [
  { code: 'it', en: 'Italian', native: 'Italiano' },
  { code: 'en', en: 'English', native: 'English' },
  { code: 'fr', en: 'French', native: 'Français' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
