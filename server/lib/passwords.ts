import argon2 from 'argon2';

/** argon2id at the OWASP minimum (19 MiB, 2 iterations, 1 lane). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string) => argon2.hash(plain, OPTIONS);

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throw-away hash so an unknown email costs the same time as a wrong password. */
export async function burnVerify(plain: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummyHash, plain);
  return false;
}

/** server.md §3: at least 8 characters with letters and digits, at most 128. */
export const PASSWORD_RULE = { minLength: 8, maxLength: 128, pattern: '^(?=.*[A-Za-z])(?=.*[0-9]).*$' } as const;
export function passwordProblem(p: string): 'validation.passwordRule' | null {
  if (p.length < PASSWORD_RULE.minLength || p.length > PASSWORD_RULE.maxLength) return 'validation.passwordRule';
  if (!/[A-Za-z]/.test(p) || !/[0-9]/.test(p)) return 'validation.passwordRule';
  return null;
}
