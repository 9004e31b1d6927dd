// ESLint (flat config), run by `npm run lint` and by `npm test` after the typecheck: errors fail, warnings
// are shown. The typecheck (tsc, strict, noUnusedLocals/Parameters) stays the first line of defence; the
// rules here add what tsc does not see: hook order, import boundaries, suspicious code.
import { defineConfig, globalIgnores } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Where a relative import may not reach: model/ is isomorphic (both sides import it), server/ never ships browser code. */
const NOT_SRC = { group: ['**/src/**', '**/src'], message: 'Browser code (src/) is not importable from here: move the shared part to model/.' };
const NOT_SERVER = { group: ['**/server/**', '**/server'], message: 'model/ is isomorphic: it may not import server code.' };
/** A repository reads and writes its tables: what a change sets in motion (lib/requestEvents, lib/webhooks) and the HTTP layers stand above it. */
const NOT_ABOVE_REPOSITORIES = {
  group: ['**/routes/**', '**/plugins/**', '**/lib/requestEvents/**', '**/lib/webhooks/**'],
  message: 'A repository only reads and writes its tables (docs/CONVENTIONS.md): routes/, plugins/ and the fan-out of lib/ call it, never the other way.',
};

export default defineConfig(
  globalIgnores(['dist/', 'dist-server/', 'node_modules/', 'test-results/', 'data/', 'coverage/', '.tmp/']),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    rules: {
      // Deliberate in a few places (Kysely over a table named at run time, JSON bodies of any shape,
      // react-admin's loosely typed records); tsc's strict mode guards the rest, so no noise for it.
      '@typescript-eslint/no-explicit-any': 'off',
      // tsc already fails on unused locals and parameters; here only what it lets through, and a leading
      // `_` marks a parameter or binding kept on purpose (a callback's position, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `catch {}` is how the code says "best effort" (a missing file, a closed socket).
      'no-empty': ['error', { allowEmptyCatch: true }],
      // The server strips control characters on purpose (chat messages, input guards): a regex naming
      // \u0000–\u001F is the point there, not a typo.
      'no-control-regex': 'off',
    },
  },

  // The browser app: React's two classic hook rules. The v7 preset's React-compiler rules (purity, refs,
  // set-state-in-effect, …) are not enabled: the app does not use the compiler and they would flag working code.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Unit tests of the browser code run in jsdom under vitest (Node).
  { files: ['src/**/*.test.{ts,tsx}', 'tests/setup/**'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },

  // Node: the server, the scripts, the tests, the config files.
  {
    files: ['server/**', 'scripts/**', 'tests/**', '.ci/**', '*.{js,mjs,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },

  // Import boundaries (docs/CONVENTIONS.md): model/ imports neither side; server/ never imports src/; a repository
  // never imports what stands above it.
  { files: ['model/**'], rules: { 'no-restricted-imports': ['error', { patterns: [NOT_SRC, NOT_SERVER] }] } },
  { files: ['server/**'], rules: { 'no-restricted-imports': ['error', { patterns: [NOT_SRC] }] } },
  { files: ['server/repositories/**'], rules: { 'no-restricted-imports': ['error', { patterns: [NOT_SRC, NOT_ABOVE_REPOSITORIES] }] } },
);
