import { expect, it } from 'vitest';
import { DEMO, describeEachDb } from './helpers.js';

describeEachDb('sign-in and the wire', (p) => {
  it('refuses calls without the API password, or with a wrong one', async () => {
    const res = await p().app.inject({ method: 'POST', url: '/api/v1/visitor/login', payload: { email: DEMO.admin, password: DEMO.password } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Password API non valida', errors: {} });
    const wrong = await p().api('POST', '/visitor/login', { headers: { 'x-api-password': 'nope' }, body: { email: DEMO.admin, password: DEMO.password } });
    expect(wrong.status).toBe(401);
  });

  it('logs each demo role in with the documented answer and no secret', async () => {
    for (const [email, role] of [
      [DEMO.admin, 'Admin'],
      [DEMO.carrier, 'Carrier'],
      [DEMO.enduser, 'Enduser'],
    ]) {
      const r = await p().api('POST', '/visitor/login', { body: { email, password: DEMO.password }, lang: 'en' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: true, message: 'Login successful', type: role, role, user: { email } });
      expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify(r.body)).not.toContain('password');
    }
  });

  it('compares emails without case', async () => {
    const r = await p().api('POST', '/visitor/login', { body: { email: '  Carrier@Portal.DEMO ', password: DEMO.password } });
    expect(r.status).toBe(200);
  });

  it('answers the same for an unknown email and a wrong password, in the caller language', async () => {
    const unknown = await p().api('POST', '/visitor/login', {
      body: { email: 'nobody@portal.demo', password: 'whatever1' },
      lang: 'fr',
      headers: { 'x-forwarded-for': '10.0.0.1' },
    });
    const wrong = await p().api('POST', '/visitor/login', {
      body: { email: DEMO.enduser, password: 'whatever1' },
      lang: 'fr',
      headers: { 'x-forwarded-for': '10.0.0.2' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.message).toBe('Ces identifiants ne correspondent pas à nos enregistrements.');
  });

  it('answers 422 with field errors for a malformed body', async () => {
    const r = await p().api('POST', '/visitor/login', { body: { email: DEMO.admin }, lang: 'en' });
    expect(r.status).toBe(422);
    expect(r.body.errors.password).toEqual(['The password field is required.']);
  });

  it('throttles after 10 untrusted failures per email, then 429 with Retry-After (the rest: loginThrottle.test.ts)', async () => {
    const email = 'throttle-me@portal.demo';
    for (let i = 0; i < 10; i++) {
      const r = await p().api('POST', '/visitor/login', { body: { email, password: 'bad-pass1' }, headers: { 'x-forwarded-for': `10.1.0.${i}` } });
      expect(r.status).toBe(401);
    }
    const blocked = await p().api('POST', '/visitor/login', {
      body: { email, password: 'bad-pass1' },
      headers: { 'x-forwarded-for': '10.1.0.99' },
      lang: 'en',
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many attempts: try again in 15 minutes.');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(890);
  });

  it('returns the profile for a valid token and 401 for an invalid one, even on public routes', async () => {
    const token = await p().login(DEMO.carrier);
    const me = await p().api('GET', '/visitor/getProfile', { token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: DEMO.carrier, first_name: 'Carlo', role: 'Carrier', company: { legal_name: 'Acme Trasporti S.r.l.' } });
    expect(me.body.user.password_hash).toBeUndefined();
    const bad = await p().api('GET', '/visitor/getProfile', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    const badOnPublic = await p().api('POST', '/visitor/login', { token: 'not-a-token', body: { email: DEMO.admin, password: DEMO.password } });
    expect(badOnPublic.status).toBe(401);
    const none = await p().api('GET', '/visitor/getProfile');
    expect(none.status).toBe(401);
  });

  it('revokes the token at logout', async () => {
    const token = await p().login(DEMO.enduser);
    expect((await p().api('GET', '/visitor/logout', { token })).status).toBe(200);
    expect((await p().api('GET', '/visitor/getProfile', { token })).status).toBe(401);
  });

  it('stores tokens hashed, with 30 days of life, 90 with remember', async () => {
    const r = await p().api('POST', '/visitor/login', { body: { email: DEMO.admin, password: DEMO.password, remember: true } });
    const rows = await p().db.db.selectFrom('auth_tokens').selectAll().execute();
    expect(rows.some((t) => t.token_hash === r.body.token)).toBe(false);
    const days = rows.map((t) => Math.round((Date.parse(t.expires_at) - Date.now()) / 86_400_000));
    expect(days).toContain(90);
    expect(days).toContain(30);
  });

  it('refuses an inactive user who knows the password, and an inactive company', async () => {
    const db = p().db.db;
    await db.updateTable('users').set({ status_id: 0 }).where('email', '=', DEMO.enduser).execute();
    const r = await p().api('POST', '/visitor/login', { body: { email: DEMO.enduser, password: DEMO.password }, lang: 'en' });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/deactivated/);
    await db.updateTable('users').set({ status_id: 1 }).where('email', '=', DEMO.enduser).execute();
    const token = await p().login(DEMO.enduser);
    const user = await db.selectFrom('users').select('company_id').where('email', '=', DEMO.enduser).executeTakeFirstOrThrow();
    await db.updateTable('companies').set({ status_id: 0 }).where('id', '=', user.company_id).execute();
    expect((await p().api('GET', '/visitor/getProfile', { token })).status).toBe(401);
    expect((await p().api('POST', '/visitor/login', { body: { email: DEMO.enduser, password: DEMO.password } })).status).toBe(403);
    await db.updateTable('companies').set({ status_id: 1 }).where('id', '=', user.company_id).execute();
  });

  it('answers JSON 404 for unknown API paths and serves the OpenAPI document', async () => {
    const r = await p().api('GET', '/no/such/route', { lang: 'en' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'The requested API route does not exist.', errors: {} });
    const docs = await p().app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.json().paths['/api/v1/visitor/login']).toBeDefined();
  });

  it('sends security headers', async () => {
    const r = await p().api('GET', '/visitor/getProfile');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
