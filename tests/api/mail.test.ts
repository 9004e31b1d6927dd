import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { expect, it } from 'vitest';
import { composeMail, createMailer } from '../../server/lib/mail.js';
import { createUser, nextIp } from './accountsHelpers.js';
import { describeEachDb } from './helpers.js';
import { startSmtpSink } from './smtpSink.js';

const silent = { info() {}, error() {} } as any;

describeEachDb('mail without SMTP: the outbox (server.md §3)', (p) => {
  const outbox = () => path.join(p().config.dataDir, 'outbox');
  const readOutbox = () =>
    fs.existsSync(outbox())
      ? fs
          .readdirSync(outbox())
          .filter((f) => f.endsWith('.json'))
          .map((f) => JSON.parse(fs.readFileSync(path.join(outbox(), f), 'utf8')))
      : [];

  it('writes each message as one JSON file with to, subject and text, in the recipient language', async () => {
    const u = await createUser(p(), { lang: 'en', first_name: 'Ann' });
    const r = await p().api('POST', '/visitor/forgetPassword', { body: { email: u.email }, headers: nextIp() });
    expect(r.status).toBe(200);
    await expect.poll(() => readOutbox().filter((m) => m.to === u.email).length).toBe(1);
    const mail = readOutbox().find((m) => m.to === u.email);
    expect(mail).toMatchObject({ from: 'Portale Trasporti <no-reply@localhost>', subject: 'Your code to reset your password' });
    expect(mail.text).toMatch(/Hello Ann,[\s\S]*\b\d{4}\b/);
    expect(Date.parse(mail.date)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('composes Italian for a recipient without a language', async () => {
    const m = await composeMail(p().db.db, { to: 'x@example.test', languageId: null, key: 'mail.resetCode', params: { name: 'Ugo', code: '0042' } });
    expect(m.subject).toBe('Il tuo codice per reimpostare la password');
    expect(m.text).toContain('0042');
  });
});

it('sends through SMTP when SMTP_URL is set, and reports a server that cannot be reached', async () => {
  const sink = await startSmtpSink();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-test-'));
  try {
    const mailer = createMailer({ smtpUrl: sink.url, dataDir, mailFrom: 'Portale <no-reply@portal.example>' }, silent);
    await mailer.send({ to: 'someone@example.test', subject: 'Prova àèì', text: 'Riga con accenti: però, città.\n' });
    const got = await sink.next('someone@example.test', 0);
    expect(got).toMatchObject({ from: 'no-reply@portal.example', subject: 'Prova àèì' });
    expect(got.text).toContain('però, città.');
    expect(fs.existsSync(path.join(dataDir, 'outbox'))).toBe(false);

    // A port nobody listens on.
    const free = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const errors: unknown[] = [];
    const down = createMailer({ smtpUrl: `smtp://127.0.0.1:${free}`, dataDir, mailFrom: 'x@y.z' }, { info() {}, error: (o: unknown) => errors.push(o) } as any);
    await expect(down.send({ to: 'a@b.c', subject: 's', text: 't' })).rejects.toThrow();
    expect(await down.sendLater({ to: 'a@b.c', subject: 's', text: 't' })).toBe(false);
    expect(errors).toHaveLength(1);
  } finally {
    await sink.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
