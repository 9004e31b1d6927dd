import crypto from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import bwip from 'bwip-js/node';

/** The name the authenticator app shows beside the account (docs/two-factor.md). */
export const TOTP_ISSUER = 'Portale Trasporti';
/** Recovery codes given at enrolment and at each regeneration. */
export const RECOVERY_CODES = 10;

export const newTotpSecret = () => generateSecret();

/**
 * The time step of a valid code for `secret`, or null: six digits, within one 30-second step before or
 * after now, and later than `lastStep` (the step of the last accepted code: a code is used once).
 */
export async function acceptedStep(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: 30, ...(lastStep != null ? { afterTimeStep: lastStep } : {}) });
  const step = result.valid && 'timeStep' in result ? (result as { timeStep?: number }).timeStep : undefined;
  return typeof step === 'number' ? step : null;
}

/** What the user types may carry spaces (apps show "123 456"); a recovery code its dash or lowercase. */
export const cleanCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();
export const isTotpCode = (code: string) => /^\d{6}$/.test(cleanCode(code));

/** otpauth:// address of the enrolment QR code. */
export const otpauthUri = (email: string, secret: string) => generateURI({ issuer: TOTP_ISSUER, label: email, secret });

/** The QR code of `text` as an SVG data URL (the CSP allows data: images). */
export function qrDataUrl(text: string): string {
  const svg = bwip.toSVG({ bcid: 'qrcode', text, scale: 4, paddingwidth: 4, paddingheight: 4, backgroundcolor: 'FFFFFF' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Ten codes of ten characters (about 49 bits each), shown as `XXXXX-XXXXX`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    let s = '';
    for (let i = 0; i < 10; i++) s += ALPHABET[crypto.randomInt(ALPHABET.length)];
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}
export const hashRecoveryCode = (code: string) =>
  crypto
    .createHash('sha256')
    .update(`mfa-recovery:${cleanCode(code)}`)
    .digest('hex');
