/**
 * Puts src/routing/reactRouterProvider.tsx in place of ra-core's default router adapter (issue 18: the
 * adapter's data-router import cost the login's first load about 14 kB brotli of react-router it never
 * runs). ra-core's RouterProviderContext imports its adapter as `./adapters/reactRouterProvider.js`; this
 * plugin answers that import (and routing/index.js's re-export of it), from ra-core only, with ours. When a react-admin upgrade moves the file
 * the build stops with a message instead of quietly shipping the heavy adapter again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const ADAPTER_IMPORT = './adapters/reactRouterProvider.js';
const LIGHT_ADAPTER = fileURLToPath(new URL('../src/routing/reactRouterProvider.tsx', import.meta.url));
/** ra-core's RouterProviderContext.js (the default adapter) and routing/index.js (which re-exports it). */
const isRaCoreRouting = (importer: string) => /[\\/]ra-core[\\/]dist[\\/]routing[\\/](RouterProviderContext|index)\.js$/.test(importer);

export function routerAdapter(): Plugin {
  let replaced = false;
  let building = false;
  return {
    name: 'portal-router-adapter',
    enforce: 'pre',
    configResolved(config) {
      building = config.command === 'build' && !config.build.watch;
    },
    buildStart() {
      replaced = false;
    },
    resolveId(source, importer) {
      if (source !== ADAPTER_IMPORT || !importer || !isRaCoreRouting(importer)) return null;
      const original = path.join(path.dirname(importer), source);
      if (!fs.existsSync(original))
        this.error(`routerAdapter: ra-core's ${original} is gone; compare src/routing/reactRouterProvider.tsx with ra-core's adapter`);
      replaced = true;
      return LIGHT_ADAPTER;
    },
    buildEnd(err) {
      // A production build always reaches ra-core's RouterProviderContext (the login uses it).
      if (building && !err && !replaced) this.error('routerAdapter: ra-core no longer imports ./adapters/reactRouterProvider.js; see build/routerAdapter.ts');
    },
  };
}
