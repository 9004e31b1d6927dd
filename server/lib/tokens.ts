import crypto from 'node:crypto';

/** 256 random bits, base64url; only the SHA-256 of a token is stored. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * `hashToken` remembered for the bearers of the latest requests (issue 37: a SHA-256 per request showed
 * in the quote's profile). Only the hash is remembered, never the session: every request still looks
 * its session up (repositories/tokens.ts `resolve`), so a logout or a revocation takes effect at once.
 * At most HASH_MEMO tokens; when full it starts over (no eviction bookkeeping on the hot path).
 */
const HASH_MEMO = 2048;
const hashMemo = new Map<string, string>();
export function hashBearer(token: string): string {
  let hash = hashMemo.get(token);
  if (hash === undefined) {
    hash = hashToken(token);
    if (hashMemo.size >= HASH_MEMO) hashMemo.clear();
    hashMemo.set(token, hash);
  }
  return hash;
}
export const nowIso = () => new Date().toISOString();
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
