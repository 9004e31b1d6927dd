import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The browser's folders stand in layers: no top-level folder of src/ imports, through any chain, one that
 * imports it back (api below authProvider and dataProvider, components below layout, dataProvider below
 * components...). Type-only and lazy imports count too. Test files are not part of the graph.
 */
const SRC = resolve(__dirname);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** `api` for src/api/http.ts, `App` for src/App.tsx; null outside src/. */
function unitOf(file: string): string | null {
  const rel = relative(SRC, file);
  if (rel.startsWith('..')) return null;
  return rel.split(sep)[0].replace(/\.(ts|tsx)$/, '');
}

export function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(SRC)) {
    const from = unitOf(file)!;
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.[^'"]+)['"]/g)].map((m) => m[1]);
    for (const spec of specs) {
      const to = unitOf(resolve(dirname(file), spec));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** Every cycle's folders (strongly connected components of more than one folder). */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import layers of src/', () => {
  it('finds a cycle when there is one', () => {
    expect(
      cyclesOf(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('no top-level folder imports one that imports it back', () => {
    const graph = folderGraph();
    expect(graph.get('dataProvider')?.has('api')).toBe(true); // the walk reads imports
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('the HTTP client and the data provider import no screens, shell or UI pieces', () => {
    const graph = folderGraph();
    for (const low of ['api', 'dataProvider']) {
      expect([...(graph.get(low) ?? [])].filter((to) => ['components', 'layout', 'custom', 'resources', 'i18n'].includes(to))).toEqual([]);
    }
    expect([...(graph.get('api') ?? [])].filter((to) => to !== 'config')).toEqual([]);
    // The provider stands on the HTTP client alone (the caller's kind and the toasts are handed in).
    expect([...(graph.get('dataProvider') ?? [])]).toEqual(['api']);
  });
});
