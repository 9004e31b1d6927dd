import crypto from 'node:crypto';

/** 256 random bits, base64url; only the SHA-256 of a token is stored. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
export const nowIso = () => new Date().toISOString();
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
