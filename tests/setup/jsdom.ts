import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { loadLocale } from '../../src/i18n';

// react-admin's English and French messages load on demand in the app (src/i18n/index.ts); tests build
// providers in any language synchronously.
await Promise.all([loadLocale('en'), loadLocale('fr')]);

// findBy/waitFor wait up to 5 s rather than 1 s: a react-admin list rendered in jsdom on a loaded 2-core CI
// machine (the API suite beside it) took over a second to show its rows; a failing test only waits longer.
configure({ asyncUtilTimeout: 5000 });
