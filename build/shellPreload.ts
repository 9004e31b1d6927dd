/**
 * What index.html asks for before any script runs (issue 18: a phone's first paint waits for as few
 * round trips as possible). main.tsx loads one of two shells on demand; without hints the browser would
 * learn of the public shell's files only after the entry has arrived and run. This plugin writes into the
 * built index.html:
 * - a `modulepreload` for every file of the public shell (src/PublicApp.tsx and what it imports): fetched
 *   and compiled in parallel with the entry, run only if main.tsx picks that shell — a signed-in user's
 *   shell shares most of them (React, MUI, react-admin's core, the translations);
 * - the entry's stylesheet inline (the Roboto faces, under 2 kB): no render-blocking request
 *   (CSP allows inline styles, not inline scripts);
 * - a `preload` for Roboto 400 and 500, which every screen's text uses: fetched with the scripts, not
 *   after the first render discovers them.
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** The public shell's module, and the font files preloaded (what every first screen's text uses). */
const PUBLIC_SHELL = /\/src\/PublicApp\.tsx$/;
const PRELOADED_FONTS = [/roboto-latin-400-normal-[\w-]+\.woff2$/, /roboto-latin-500-normal-[\w-]+\.woff2$/];
const INLINE_CSS_MAX = 4096;

export function shellPreload(): Plugin {
  let base = '/';
  return {
    name: 'portal-shell-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle || !ctx.chunk) return html;
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (start: string, into = new Set<string>()) => {
          if (into.has(start)) return into;
          into.add(start);
          for (const i of byName.get(start)?.imports ?? []) closure(i, into);
          return into;
        };
        const shell = chunks.find((c) => c.facadeModuleId && PUBLIC_SHELL.test(c.facadeModuleId));
        if (!shell) throw new Error('shellPreload: no chunk for src/PublicApp.tsx');
        const already = closure(ctx.chunk.fileName);
        const tags: HtmlTagDescriptor[] = [...closure(shell.fileName)]
          .filter((f) => !already.has(f))
          .map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: base + f }, injectTo: 'head' }));
        for (const font of PRELOADED_FONTS) {
          const asset = Object.values(bundle).find((a) => a.type === 'asset' && font.test(a.fileName));
          if (!asset) throw new Error(`shellPreload: no font file matching ${font}`);
          tags.push({
            tag: 'link',
            attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: true, href: base + asset.fileName },
            injectTo: 'head',
          });
        }
        // The entry's stylesheet inline, when small (the font faces): one render-blocking request less.
        const inlined = html.replace(/<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g, (link, href: string) => {
          const asset = bundle[href.slice(base.length)];
          if (!asset || asset.type !== 'asset') return link;
          const css = String(asset.source);
          return css.length <= INLINE_CSS_MAX ? `<style>${css}</style>` : link;
        });
        return { html: inlined, tags };
      },
    },
  };
}
