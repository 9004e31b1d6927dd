import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createTestPortal, testDatabases } from './helpers.js';
import { ensureAdmin } from '../../server/seed/index.js';

describe('configuration', () => {
  it('defaults: port 3000, ./data, API password change-me, demo data on', () => {
    const c = loadConfig({} as NodeJS.ProcessEnv);
    expect(c.port).toBe(3000);
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.apiPassword).toBe('change-me');
    expect(c.demoData).toBe(true);
    expect(c.databaseUrl).toBeUndefined();
  });
  it('refuses production without API_PASSWORD, and without SMTP_URL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://x' } as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', API_PASSWORD: 'x' } as NodeJS.ProcessEnv)).toThrow(/SMTP_URL/);
  });
  it('production loads no demo data', () => {
    const c = loadConfig({ NODE_ENV: 'production', API_PASSWORD: 'x', SMTP_URL: 'smtp://x' } as NodeJS.ProcessEnv);
    expect(c.demoData).toBe(false);
  });
});

for (const dialect of testDatabases()) {
  describe(`first admin in production [${dialect}]`, () => {
    it('creates no demo logins, and the first admin from ADMIN_EMAIL / ADMIN_PASSWORD once', async () => {
      const p = await createTestPortal(dialect, { demoData: false, adminEmail: 'Boss@Example.com', adminPassword: 's3cret-pass' });
      try {
        expect((await p.api('POST', '/visitor/login', { body: { email: 'admin@portal.demo', password: 'demo1234' } })).status).toBe(401);
        const r = await p.api('POST', '/visitor/login', { body: { email: 'boss@example.com', password: 's3cret-pass' } });
        expect(r.status).toBe(200);
        expect(r.body.role).toBe('Admin');
        expect(await ensureAdmin(p.db.db, 'boss@example.com', 'other-pass1')).toBe(false);
        await expect(ensureAdmin(p.db.db, 'new@example.com', 'short')).rejects.toThrow(/at least 8/);
      } finally {
        await p.close();
      }
    });
  });
}
