import '@testing-library/jest-dom/vitest';
import { loadLocale } from '../../src/i18n';

// react-admin's English and French messages load on demand in the app (src/i18n/index.ts); tests build
// providers in any language synchronously.
await Promise.all([loadLocale('en'), loadLocale('fr')]);
