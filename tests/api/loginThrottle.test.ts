import { expect, it } from 'vitest';
import { DEMO, awaitFreshMinute, describeEachDb } from './helpers.js';

/**
 * The sign-in throttle (5 failures a minute per email and per address, server.md §3) under concurrent
 * guesses: each attempt is counted before its password is checked, so a burst lets exactly 5 through
 * to a password check however the calls interleave (the checks used to read the counts first and count
 * failures afterwards, so a burst passed the check while the count still stood below 5).
 */
describeEachDb('sign-in throttle under concurrent guesses', (p) => {
  const login = (email: string, password: string, address: string) =>
    p().api('POST', '/visitor/login', { body: { email, password }, headers: { 'x-forwarded-for': address } });
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

  it('lets exactly 5 of 20 concurrent wrong passwords for one email be checked', async () => {
    await awaitFreshMinute();
    const email = 'burst-target@portal.demo';
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(email, `wrong-pass${i}`, `203.0.113.${i + 1}`)));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 5, 429: 15 });
  });

  it('lets exactly 5 of 20 concurrent wrong passwords from one address be checked', async () => {
    await awaitFreshMinute();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(`burst${i}@portal.demo`, 'wrong-pass1', '198.51.100.7')));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 5, 429: 15 });
  });

  it('does not count a right password as a failure', async () => {
    await awaitFreshMinute();
    const address = '198.51.100.8';
    for (let i = 0; i < 4; i++) expect((await login(`miss${i}@portal.demo`, 'wrong-pass1', address)).status).toBe(401);
    // Right passwords leave the 4 failures as they were. (Concurrent ones at the edge would be refused:
    // each attempt holds its slot until its password has proved right.)
    for (let i = 0; i < 3; i++) expect((await login(DEMO.enduser, DEMO.password, address)).status).toBe(200);
    expect((await login('miss4@portal.demo', 'wrong-pass1', address)).status).toBe(401);
    expect((await login(DEMO.enduser, DEMO.password, address)).status).toBe(429);
  });
});
