import { afterEach, describe, expect, it } from 'vitest';
import { burnVerify, hashPassword, useTestHashing, verifyPassword } from './passwords';

/** The portal hashes at the OWASP minimum; only the tests' setup lowers it (tests/setup/testHashing.ts). */
describe('password hashing', () => {
  afterEach(() => useTestHashing(false));

  it('hashes with argon2id at 19 MiB, 2 iterations and 1 lane unless a test asks otherwise', async () => {
    const hash = await hashPassword('Secret123');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'Secret123')).toBe(true);
    expect(await verifyPassword(hash, 'Secret124')).toBe(false);
  });

  it("the tests' cost is argon2id too, and a hash verifies at the cost it was made with", async () => {
    const portal = await hashPassword('Secret123');
    useTestHashing(true);
    const cheap = await hashPassword('Secret123');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(portal, 'Secret123')).toBe(true);
    expect(await verifyPassword(cheap, 'Secret123')).toBe(true);
    expect(await burnVerify('Secret123')).toBe(false);
    useTestHashing(false);
    expect(await verifyPassword(cheap, 'Secret123')).toBe(true);
    expect(await hashPassword('x')).toMatch(/m=19456,t=2,p=1/);
  });
});
