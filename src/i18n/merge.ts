type Tree = Record<string, unknown>;

/** Deep merge of message trees: `over`'s leaves win (a screen folder's texts over a declaration's). */
export function mergeMessages<T extends Record<string, Tree>>(base: T, over: Partial<Record<keyof T, Tree>>): T {
  const merge = (a: Tree, b: Tree): Tree => {
    const out: Tree = { ...a };
    for (const [k, v] of Object.entries(b)) {
      out[k] = v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' ? merge(out[k] as Tree, v as Tree) : v;
    }
    return out;
  };
  return Object.fromEntries(Object.keys(base).map((l) => [l, merge(base[l], (over[l] ?? {}) as Tree)])) as T;
}
