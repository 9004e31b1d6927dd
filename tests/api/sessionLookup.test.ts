import { expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { tokensRepo } from '../../server/repositories/tokens.js';
import { DEMO, describeEachDb } from './helpers.js';

/**
 * The session lookup batches the signed-in requests of one event-loop turn into one query
 * (repositories/tokens.ts, issue 11's quote budget). Each request must still get exactly its own
 * user, and every refused token stays refused.
 */
describeEachDb('session lookup in batches', (p) => {
  /** The portal's database with a counter of the statements run through it (and a way to make the next ones fail). */
  function countingDb() {
    const state = { statements: 0, failNext: 0 };
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        state.statements++;
        if (state.failNext > 0) {
          state.failNext--;
          throw new Error('connection lost (test)');
        }
        return args.result;
      },
    };
    return { db: p().db.db.withPlugin(plugin), state };
  }

  it('answers each of many simultaneous requests with its own user; refused tokens stay refused', async () => {
    const { api, db, login } = p();
    const tokens = { admin: await login(DEMO.admin), carrier: await login(DEMO.carrier), enduser: await login(DEMO.enduser) };
    const signedOut = await login(DEMO.enduser);
    expect((await api('GET', '/visitor/logout', { token: signedOut })).status).toBe(200);
    const expired = await login(DEMO.carrier);
    expect((await api('GET', '/visitor/getProfile', { token: expired })).status).toBe(200);
    // the newest carrier token is the one just issued: it expired a second ago
    const newest = await db.db.selectFrom('auth_tokens').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    await db.db
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', newest.id)
      .execute();

    const calls: Array<{ token: string; expect: string | 401 }> = [];
    for (let i = 0; i < 20; i++) {
      calls.push({ token: tokens.admin, expect: DEMO.admin }, { token: tokens.carrier, expect: DEMO.carrier }, { token: tokens.enduser, expect: DEMO.enduser });
      if (i % 5 === 0) calls.push({ token: signedOut, expect: 401 }, { token: expired, expect: 401 }, { token: `x${i}-not-a-token`, expect: 401 });
    }
    const answers = await Promise.all(calls.map((c) => api('GET', '/visitor/getProfile', { token: c.token })));
    answers.forEach((a, i) => {
      if (calls[i]!.expect === 401) expect(a.status).toBe(401);
      else expect([a.status, a.body.user?.email]).toEqual([200, calls[i]!.expect]);
    });
  });

  it('looks up the tokens of one turn in one statement, in chunks of 500, each token its own user', async () => {
    const { db: counted, state } = countingDb();
    const repo = tokensRepo(counted);
    const users = await p().db.db.selectFrom('users').select(['id', 'email']).where('status_id', '=', 1).orderBy('id').limit(3).execute();
    const issued = await Promise.all(
      Array.from({ length: 1_100 }, (_, i) =>
        repo.issue(users[i % users.length]!.id, false).then((token) => ({ token, email: users[i % users.length]!.email })),
      ),
    );

    state.statements = 0;
    const asked = [...issued, issued[0]!, issued[1]!]; // the same token twice in one turn as well
    const found = await Promise.all(asked.map((t) => repo.resolve(t.token)));
    expect(found.map((f) => f?.email)).toEqual(asked.map((t) => t.email));
    expect(state.statements).toBe(3); // 1 100 distinct hashes: 500 + 500 + 100

    state.statements = 0;
    const one = await repo.resolve(issued[5]!.token);
    expect(one?.email).toBe(issued[5]!.email);
    expect(state.statements).toBe(1);
    expect(await repo.resolve('no-such-token')).toBeUndefined();
  });

  it('fails every request of a batch whose lookup fails, and the next batch works', async () => {
    const { db: counted, state } = countingDb();
    const repo = tokensRepo(counted);
    const token = await p().login(DEMO.carrier);
    state.failNext = 1;
    const failed = await Promise.allSettled([repo.resolve(token), repo.resolve(token), repo.resolve('other')]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await repo.resolve(token))?.email).toBe(DEMO.carrier);
  });
});
