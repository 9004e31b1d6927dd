import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.js';
import { routerAdapter } from './build/routerAdapter.js';
import { shellPreload } from './build/shellPreload.js';
import { prerender } from './build/prerender.js';

// The dev server proxies the API and media to a server started with `npm run server` (port 3000).
// ra-core's router adapter without the data router (build/routerAdapter.ts).
// index.html preloads the fonts and inlines their faces (build/shellPreload.ts); the build writes brotli and gzip variants next to the text files (build/precompress.ts; served by server/app.ts).
// A polyfill the supported browsers do not need (build/shims/object-entries.cjs).
const alias = { 'object.entries': fileURLToPath(new URL('./build/shims/object-entries.cjs', import.meta.url)) };

// The public pages' first screens are prerendered into the built index.html (build/prerender.ts, issue 37).
export default defineConfig({
  plugins: [react(), routerAdapter(), shellPreload(), prerender(alias), precompress()],
  resolve: { alias },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Issue 11: the libraries the entry imports statically (React, MUI core, react-admin core,
          // router, i18n) in one `vendor` chunk — without this rolldown split them into ~30 small shared
          // chunks the first load fetched one by one (33 files, 328 kB gzipped, against 3 files and
          // 313 kB now). Libraries only the screens use stay in the screens' on-demand chunks; the app's
          // own shell code (login page, layout, messages) is the entry chunk, so a deploy that changes
          // only app code leaves `vendor` cached.
          // Issue 18: the bundler's helpers (`\0` ids: the preload helper) join `vendor`, and the app's own modules
          // of the first load stay in the entry (`index`; rolldown had split the HTTP client into a file of its
          // own): a request less each, about 1 kB of headers apiece.
          // Issue 37: the libraries in three files, evaluated one after another in tasks of their own
          // (build/prerender.ts starts them in order): evaluating one `vendor` file was one task of ~35 ms
          // (~140 ms on Lighthouse's 4× slower phone), which the browser cannot split.
          groups: [
            { name: 'vendor-react', tags: ['$initial'], test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            { name: 'vendor-mui', tags: ['$initial'], test: /node_modules[\\/](@mui|@emotion)[\\/]/, priority: 2 },
            { name: 'vendor', tags: ['$initial'], test: (id) => /node_modules/.test(id) || id.startsWith('\0'), priority: 1 },
            { name: 'index', tags: ['$initial'], test: /[\\/](src|model)[\\/]/ },
          ],
        },
      },
    },
  },
});
