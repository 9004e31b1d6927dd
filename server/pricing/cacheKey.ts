/**
 * One text for a tuple of values, for the pricing caches' Map keys (issue 37: JSON.stringify of an array was
 * the tariff lookup's largest cost per quote). Each part writes its type and where it ends: `~` for null or
 * undefined, `t`/`f` for booleans, `n<number>;` for a number, `s<length>:<text>` for a string. No part's text
 * can end another part early or be read as another type, so two different tuples never share a key
 * (cacheKey.test.ts).
 */
export type KeyPart = string | number | boolean | null | undefined;

export function cacheKey(...parts: KeyPart[]): string {
  let key = '';
  for (let i = 0; i < parts.length; i++) {
    const v = parts[i];
    if (v === null || v === undefined) key += '~';
    else if (typeof v === 'string') key += `s${v.length}:${v}`;
    else if (typeof v === 'number') key += `n${v};`;
    else key += v ? 't' : 'f';
  }
  return key;
}
