/**
 * The first screen of the four public pages a visitor meets (/#/login, /#/quote, /#/track, /#/access-request),
 * prerendered into the built index.html (issue 37): a phone paints the page from the HTML alone, before the
 * ~500 kB of JavaScript has arrived and run (Lighthouse mobile: a client-rendered page could not paint before
 * ~2.0 s; docs/benchmarks.md).
 *
 * Choices:
 * - **Rendered in Node, no browser** (`npm start` builds on machines without Chromium): during `vite build`,
 *   a Vite dev server in middleware mode loads src/prerender/render.tsx through its SSR module loader and
 *   React's `prerenderToNodeStream` renders the public shell at each route, emotion's rules collected from its
 *   cache. The same components and theme as the browser, so the same markup and the same class names.
 * - **All four in the one index.html, one shown by the address.** The routing is in the hash, which the server
 *   never sees. An inline script in <head> (it runs before the body is parsed, so before the first paint) sets
 *   `data-prerender` on <html> when the address is exactly one of the four pages (a query, e.g. an
 *   invitation's `?carrier=` or a tracking link's code, renders differently: no snapshot), the visitor is
 *   signed out (no `userToken` cookie: a signed-in user never sees a public page's snapshot) and the stored
 *   language is Italian or none (the snapshots are Italian; an English or French visitor gets no snapshot
 *   rather than a flash of Italian — three languages would triple the HTML for a minority of first loads).
 *   Only then is the snapshots' stylesheet switched on (`media="not all"` until then); otherwise it is removed,
 *   so it never styles another page. Switched on, it is emotion's from then on: it carries emotion's
 *   server-rendering marker (`data-emotion="css <names>"`), so the app's emotion cache adopts its rules
 *   instead of compiling and inserting them again in React's first commit (measured: ~35 ms of the login's
 *   ~100 ms commit, unthrottled, was emotion compiling these rules). The server allows the script by its hash in the Content-Security-Policy (server/app.ts reads
 *   it from this index.html), not by `'unsafe-inline'`.
 * - **Inside #root, inert and hidden from assistive technology** (`inert`, `aria-hidden`), without the test
 *   ids, ids, names or `autofocus` of the page it copies: React's first commit into #root replaces it in the
 *   same frame (createRoot clears the container), with the same pixels, so the snapshot is never on screen
 *   beside the real page and nothing can focus, click or find it. src/main.tsx loads the page's module before
 *   that first render (publicPages.tsx PRERENDERED) and then removes the attribute.
 * - Size: the four snapshots and their rules (deduplicated by emotion's names) add ~10 kB compressed to
 *   index.html, which every page's first load carries anyway.
 *
 * tests/browser/prerender.test.ts checks the snapshots against React's render (positions at 390 px, nothing
 * focusable, the chooser's rules); a build whose snapshots are missing fails there and here (an empty render).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { routerAdapter } from './routerAdapter.js';
import type { RenderedPage } from '../src/prerender/render.js';

export const PRERENDER_STYLE_ID = 'prerender-css';

/** Attributes of the copied markup that must not exist twice in the page (tests, labels, forms, focus). */
const DROPPED_ATTRIBUTES = / (?:data-testid|id|for|name|autofocus|aria-labelledby|aria-describedby|aria-invalid)="[^"]*"/g;

/**
 * The script that picks the snapshot (see above) and starts the app's script files: at once without a
 * snapshot; under one, once its first frame is out (then a setTimeout too, as requestAnimationFrame waits while
 * a tab is in the background). Issue 37, measured: with the files requested by the HTML as before, they
 * arrived before the snapshot's first paint on a fast connection, and Lighthouse's simulation, which replays
 * on a slow phone what ended before that paint, put FCP back at ~2 s.
 * The files (the bundler's runtime, the three library files, the entry: vite.config.ts) are all requested at
 * once (`modulepreload`: fetched and compiled, not run) and run one after another, each in a task of its own
 * (the next one from a setTimeout after the previous one's `load`): run as one module graph, their
 * evaluation was a single task of ~35 ms, ~140 ms on Lighthouse's 4× slower phone, all of it counted as
 * blocking once the snapshot has painted. They are in dependency order (Vite writes them so). Kept small and
 * free of `</`.
 */
function chooser(routes: string[], scripts: string[]): string {
  return (
    `(function(){var s=${JSON.stringify(scripts)},d=document,done=0,i=0;` +
    `function next(){if(i<s.length){var e=d.createElement("script");e.type="module";e.src=s[i++];e.onload=e.onerror=function(){setTimeout(next)};d.head.appendChild(e)}}` +
    `function go(){if(done)return;done=1;s.forEach(function(u){var l=d.createElement("link");l.rel="modulepreload";l.href=u;d.head.appendChild(l)});next()}` +
    `try{var r=location.hash.slice(1),l=JSON.parse(localStorage.getItem("Portal.locale")||"null");` +
    `if(${JSON.stringify(routes)}.indexOf(r)>=0&&(l===null||l==="it")&&!/(?:^|;\\s*)userToken=[^;]/.test(d.cookie)){` +
    `d.documentElement.setAttribute("data-prerender",r);d.getElementById("${PRERENDER_STYLE_ID}").removeAttribute("media");` +
    `requestAnimationFrame(function(){setTimeout(go)});setTimeout(go,1000);return}}catch(e){}` +
    `var c=d.getElementById("${PRERENDER_STYLE_ID}");if(c)c.remove();go()})()`
  );
}

/** A build-time asset the dev loader addressed as /src/…: the logo (270 bytes) as the client build writes it, inline. */
function inlineAssets(html: string, root: string): string {
  return html.replace(/ src="\/(src\/[^"]+\.svg)"/g, (_m, file: string) => {
    const svg = fs.readFileSync(path.join(root, file));
    return ` src="data:image/svg+xml;base64,${svg.toString('base64')}"`;
  });
}

/** Renders the pages in Node through a Vite dev server of the same sources (no browser). */
export async function renderPages(root: string, alias: NonNullable<UserConfig['resolve']>['alias']): Promise<RenderedPage[]> {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    appType: 'custom',
    plugins: [react(), routerAdapter()],
    resolve: { alias },
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    // react-admin's packages through Vite, not Node: the router adapter is replaced in ra-core
    // (build/routerAdapter.ts) as in the browser build, and they share one ra-core (its contexts: the
    // translations) with the sources.
    ssr: { noExternal: ['react-admin', /^ra-/] },
    optimizeDeps: { noDiscovery: true, include: [] },
    // its caches (the React plugin's pre-bundled runtime) in a temporary folder, not in node_modules/.vite
    cacheDir: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-prerender-')),
  });
  try {
    const mod = (await server.ssrLoadModule('/src/prerender/render.tsx')) as typeof import('../src/prerender/render.js');
    const pages: RenderedPage[] = [];
    for (const route of mod.PRERENDERED_ROUTES) pages.push(await mod.renderPublicPage(route));
    return pages;
  } finally {
    await server.close();
    fs.rmSync(server.config.cacheDir, { recursive: true, force: true });
  }
}

/** index.html with the snapshots in #root, their rules and the chooser in <head>. */
export function withSnapshots(html: string, pages: RenderedPage[], root: string): string {
  const rules = new Map<string, string>();
  for (const p of pages) for (const [name, css] of p.css) if (!rules.has(name)) rules.set(name, css);
  const snapshots = pages.map((p) => {
    // React 19 writes preload <link>s for images ahead of the markup (the logo): not wanted inside #root.
    const markup = inlineAssets(p.html.replace(/<link [^>]*>/g, '').replace(/<!--.*?-->/g, ''), root).replace(DROPPED_ATTRIBUTES, '');
    if (!markup.includes('<h1')) throw new Error(`prerender: the render of ${p.route} has no heading: ${markup.slice(0, 200)}`);
    return `<div data-prerender-page="${p.route}" inert aria-hidden="true">${markup}</div>`;
  });
  const show = pages.map((p) => `html[data-prerender="${p.route}"] [data-prerender-page="${p.route}"]`).join(',');
  if (!html.includes('<div id="root"></div>') || !html.includes('</head>')) throw new Error('prerender: index.html has no empty #root or no </head>');
  // The entry's script files (Vite writes one <script type="module"> each): started by the chooser instead.
  const scripts: string[] = [];
  const withoutScripts = html.replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g, (_m, src: string) => {
    scripts.push(src);
    return '';
  });
  if (!scripts.length) throw new Error('prerender: index.html names no script file');
  const head =
    `<style>[data-prerender-page]{display:none}</style>` +
    // emotion's server-rendering marker: emotion's cache, created in the browser when the app's scripts run,
    // takes these rules as already inserted (its SSR hydration) and does not compile and insert them again
    `<style id="${PRERENDER_STYLE_ID}" media="not all" data-emotion="css ${[...rules.keys()].join(' ')}">${show}{display:block}${[...rules.values()].join('')}</style>` +
    `<script>${chooser(
      pages.map((p) => p.route),
      scripts,
    )}</script>`;
  return withoutScripts.replace('</head>', `${head}\n  </head>`).replace('<div id="root"></div>', `<div id="root">${snapshots.join('')}</div>`);
}

export function prerender(alias: NonNullable<UserConfig['resolve']>['alias']): Plugin {
  let root = '';
  return {
    name: 'portal-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const started = Date.now();
        const pages = await renderPages(root, alias);
        const out = withSnapshots(html, pages, root);
        console.log(`prerender: ${pages.map((p) => p.route).join(', ')} in ${Date.now() - started} ms (${out.length - html.length} bytes)`);
        return out;
      },
    },
  };
}
