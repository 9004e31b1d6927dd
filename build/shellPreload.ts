/**
 * What index.html asks for before any script runs (issue 18: a phone's first paint waits for as few
 * round trips as possible). Vite already preloads the entry's files (the public shell, src/main.tsx);
 * this plugin adds to the built index.html:
 * - the Roboto faces (300, 400, 500, 700, latin subset; @fontsource/roboto's files, emitted here) inline:
 *   no render-blocking request (CSP allows inline styles, not inline scripts). Issue 37: they used to be
 *   imported by src/main.tsx, which attached their stylesheet to the `vendor` chunk, and Vite then listed it
 *   among the dependencies of every chunk loaded on demand: opening the tracking, access request or quote
 *   page fetched it again at the highest priority and waited for it before rendering. Written here, no
 *   script chunk knows of it. (`vite` in development links @fontsource's stylesheets instead.)
 *   Another small stylesheet index.html would link is inlined too;
 * - a `preload` for Roboto 400 and 500, which every screen's text uses: fetched with the scripts, not
 *   after the first render discovers them (measured: login LCP 2.87 s without, 2.66 s with);
 * - the icon (public/favicon.svg, 270 bytes) as a `data:` address: one request less on a first load,
 *   about 1.1 kB on the wire with its headers (CSP's img-src allows `data:`). The file stays served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** Roboto's latin subset covers Italian, English and French (à é ç œ € « »); another script's letters fall back to the system font. */
const WEIGHTS = [300, 400, 500, 700];
const fontsource = path.dirname(createRequire(import.meta.url).resolve('@fontsource/roboto/package.json'));
const fontFile = (w: number, ext: 'woff2' | 'woff') => `roboto-latin-${w}-normal.${ext}`;

/** The font files preloaded (what every first screen's text uses). */
const PRELOADED_FONTS = [/roboto-latin-400-normal-[\w-]+\.woff2$/, /roboto-latin-500-normal-[\w-]+\.woff2$/];
const INLINE_CSS_MAX = 4096;

export function shellPreload(): Plugin {
  let base = '/';
  let publicDir = '';
  let building = false;
  return {
    name: 'portal-shell-preload',
    configResolved(config) {
      base = config.base;
      publicDir = config.publicDir;
      building = config.command === 'build';
    },
    buildStart() {
      if (!building) return;
      // The font files, named as Vite names assets (assets/roboto-latin-400-normal-<hash>.woff2).
      for (const w of WEIGHTS) {
        for (const ext of ['woff2', 'woff'] as const) {
          this.emitFile({ type: 'asset', name: fontFile(w, ext), source: fs.readFileSync(path.join(fontsource, 'files', fontFile(w, ext))) });
        }
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!building) {
          // Development: @fontsource's own stylesheets, as Vite serves them.
          return WEIGHTS.map((w) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', href: `/node_modules/@fontsource/roboto/latin-${w}.css` },
            injectTo: 'head' as const,
          }));
        }
        if (!bundle) return html;
        const emitted = (name: string) => {
          const stem = name.replace(/\.(woff2?)$/, '');
          const ext = name.slice(stem.length);
          const asset = Object.values(bundle).find((a) => a.type === 'asset' && a.fileName.startsWith(`assets/${stem}-`) && a.fileName.endsWith(ext));
          if (!asset) throw new Error(`shellPreload: no emitted font file for ${name}`);
          return base + asset.fileName;
        };
        const faces = WEIGHTS.map(
          (w) =>
            `@font-face{font-family:Roboto;font-style:normal;font-display:swap;font-weight:${w};` +
            `src:url(${emitted(fontFile(w, 'woff2'))})format("woff2"),url(${emitted(fontFile(w, 'woff'))})format("woff")}`,
        ).join('');
        const tags: HtmlTagDescriptor[] = [{ tag: 'style', children: faces, injectTo: 'head' }];
        tags.push(
          ...PRELOADED_FONTS.map((font): HtmlTagDescriptor => {
            const asset = Object.values(bundle).find((a) => a.type === 'asset' && font.test(a.fileName));
            if (!asset) throw new Error(`shellPreload: no font file matching ${font}`);
            return { tag: 'link', attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: true, href: base + asset.fileName }, injectTo: 'head' };
          }),
        );
        // The entry's stylesheet inline, when small (the font faces): one render-blocking request less.
        const inlined = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g, (link, href: string) => {
          const asset = bundle[href.slice(base.length)];
          if (!asset || asset.type !== 'asset') return link;
          const css = String(asset.source);
          return css.length <= INLINE_CSS_MAX ? `<style>${css}</style>` : link;
        });
        const iconHref = `${base}favicon.svg`;
        const withIcon = inlined.replace(`href="${iconHref}"`, () => {
          const svg = fs.readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8').trim();
          // The few characters an address cannot hold as they are (quotes become apostrophes).
          const data = svg.replace(/"/g, "'").replace(/[<>#%\n]/g, encodeURIComponent);
          return `href="data:image/svg+xml,${data}"`;
        });
        if (withIcon === inlined) throw new Error(`shellPreload: index.html has no icon link to ${iconHref}`);
        return { html: withIcon, tags };
      },
    },
  };
}
