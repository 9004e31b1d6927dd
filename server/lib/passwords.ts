import argon2 from 'argon2';

/** argon2id at the OWASP minimum (19 MiB, 2 iterations, 1 lane): what the portal hashes passwords and codes with. */
export const HASHING = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
/**
 * The tests' cost (1 MiB, 1 iteration; still argon2id, still salted, verified by the same code): the API tests' SQLite
 * half alone hashes and verifies 1 443 passwords and codes (counted), 41 ms of CPU each at the OWASP cost on the 2-core
 * CI machine; at the tests' cost the API project took 612 core-s against 693 (issue 37 item 3, docs/benchmarks.md). As Django's test settings do with a
 * fast hasher, the test setup (tests/setup/testHashing.ts) switches to it; nothing in the server does. A hash
 * carries its parameters, so a hash made at either cost verifies at its own; `HASHING` is what production uses
 * (server/lib/passwords.test.ts), and the test that compares an unknown email's time with a known one's runs at it.
 */
export const TEST_HASHING = { ...HASHING, memoryCost: 1024, timeCost: 1 } as const;
let options: typeof HASHING | typeof TEST_HASHING = HASHING;
let dummyHash: Promise<string> | undefined;
/** Tests only: hash at `TEST_HASHING` (true) or at the portal's cost again (false). */
export function useTestHashing(on: boolean) {
  const next = on ? TEST_HASHING : HASHING;
  if (next !== options) dummyHash = undefined;
  options = next;
}

export const hashPassword = (plain: string) => argon2.hash(plain, options);

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** Verifies against a throw-away hash (at the current cost) so an unknown email costs the same time as a wrong password. */
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
