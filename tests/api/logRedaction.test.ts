import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { buildApp, LOG_SERIALIZERS, REDACTED, redactUrl } from '../../server/app.js';
import { DEMO, describeEachDb } from './helpers.js';

/**
 * Credentials in query strings never reach the request log (issue 31): the live stream's ticket, the
 * tracking link's code and postal code, and any token, key, password, secret or signature. The app's own
 * logger is captured (a pino destination stream) while such URLs are called.
 */
const lines: string[] = [];
/** A 3-pallet national express quote (the demo end user's carrier prices it, or answers why not: 200 either way). */
const QUOTE = {
  zone: 'national',
  service: 'palletExpress',
  originCountry: 'IT',
  originPostalCode: '20121',
  originLocality: 'Milano',
  originProvince: 'MI',
  destinationCountry: 'IT',
  destinationPostalCode: '00118',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  palletWeight: [250, 480, 120],
  palletWidth: [120, 120, 80],
  palletLength: [80, 100, 120],
  palletHeight: [90, 140, 75],
};
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

describeEachDb(
  'the request log: credentials in query strings are redacted',
  (p) => {
    /** The log lines written while `call` ran. */
    async function logOf(call: () => Promise<unknown>) {
      const from = lines.length;
      await call();
      await new Promise((r) => setImmediate(r));
      return lines.slice(from).join('\n');
    }

    it('logs the live stream’s URL with ticket=[REDACTED], never the ticket', async () => {
      const token = await p().login(DEMO.enduser);
      const issued = await p().api('POST', '/enduser/events/ticket', { token });
      expect(issued.status).toBe(200);
      // the ticket as issued, one letter changed so that the stream answers 401 at once instead of staying open
      const ticket: string = issued.body.data.ticket;
      const forged = ticket.slice(0, -1) + (ticket.endsWith('A') ? 'B' : 'A');
      const log = await logOf(async () => {
        const r = await p().app.inject({ method: 'GET', url: `/api/v1/enduser/events?ticket=${encodeURIComponent(forged)}&last_event_id=7` });
        expect(r.statusCode).toBe(401);
      });
      expect(log).toContain('"url":"/api/v1/enduser/events?ticket=[REDACTED]&last_event_id=7"');
      expect(log).not.toContain(forged.slice(0, 20));
      expect(log).not.toContain(encodeURIComponent(forged).slice(0, 20));
    });

    it('redacts the tracking link’s code and postal code, and any token, key, password, secret or signature', async () => {
      const track = await logOf(() => p().api('GET', '/visitor/track?code=424242&postal_code=00118', { headers: { 'x-forwarded-for': '10.77.0.1' } }));
      expect(track).toContain(`/api/v1/visitor/track?code=${REDACTED}&postal_code=${REDACTED}`);
      expect(track).not.toContain('424242');
      expect(track).not.toContain('00118');
      const secrets = ['tok-SECRET-1', 'key-SECRET-2', 'pw-SECRET-3', 'sec-SECRET-4', 'sig-SECRET-5', 'otp-SECRET-6', 'reset-SECRET-7'];
      const url =
        `/visitor/country_list?access_token=${secrets[0]}&API_KEY=${secrets[1]}&password=${secrets[2]}&client_secret=${secrets[3]}` +
        `&signature=${secrets[4]}&otp=${secrets[5]}&%72eset_token=${secrets[6]}&page=2`;
      const other = await logOf(() => p().api('GET', url));
      for (const s of secrets) expect(other).not.toContain(s);
      expect(other).toContain(`access_token=${REDACTED}&API_KEY=${REDACTED}&password=${REDACTED}`);
      expect(other).toContain('&page=2');
      // the line is there at all (one per request, written when it is answered: app.ts requestLogLine)
      expect(other).toMatch(/"msg":"request completed"/);
    });

    it('a successful quote (the hot path) writes one trimmed line: method, url, route, status, ms', async () => {
      const token = await p().login(DEMO.enduser);
      const log = await logOf(async () => {
        const r = await p().api('POST', '/visitor/costRequest', { token, body: QUOTE });
        expect(r.status).toBe(200);
      });
      const mine = log.split('\n').map((l) => JSON.parse(l));
      expect(mine).toHaveLength(1);
      expect(Object.keys(mine[0]).sort()).toEqual(['hostname', 'level', 'method', 'ms', 'msg', 'pid', 'reqId', 'route', 'status', 'time', 'url']);
      expect(mine[0]).toMatchObject({
        level: 30,
        method: 'POST',
        url: '/api/v1/visitor/costRequest',
        route: '/api/v1/visitor/costRequest',
        status: 200,
        msg: 'request completed',
      });
      expect(typeof mine[0].ms).toBe('number');
      // no headers, no body, no answer in it
      expect(log).not.toContain(token);
      expect(log).not.toContain('Milano');
    });

    it('errors are logged (the error with its stack, and the request at level error); refused credentials at warn', async () => {
      const { config, db } = p();
      const app = await buildApp({ config, db, logger: { level: 'warn', stream: sink } });
      app.get('/api/v1/log-boom', { config: { policy: 'public' }, schema: { summary: 'Fails.', response: { 200: { type: 'object' } } } }, async () => {
        throw new Error('log-boom failure');
      });
      await app.ready();
      try {
        const log = await logOf(async () => {
          const r = await app.inject({ method: 'GET', url: '/api/v1/log-boom', headers: { 'x-api-password': config.apiPassword } });
          expect(r.statusCode).toBe(500);
        });
        const mine = log.split('\n').map((l) => JSON.parse(l));
        const err = mine.find((l) => l.msg === 'unhandled error');
        expect(err).toMatchObject({ level: 50, err: { message: 'log-boom failure' } });
        expect(err.err.stack).toContain('log-boom failure');
        expect(mine.find((l) => l.msg === 'request completed')).toMatchObject({ level: 50, status: 500, url: '/api/v1/log-boom' });
        // at warn, a refused bearer is still there (and a successful request is not)
        const refused = await logOf(async () => {
          const r = await app.inject({
            method: 'GET',
            url: '/api/v1/enduser/address_book',
            headers: { 'x-api-password': config.apiPassword, authorization: 'Bearer nope-not-a-token' },
          });
          expect(r.statusCode).toBe(401);
          expect((await app.inject({ method: 'GET', url: '/api/v1/visitor/ping', headers: { 'x-api-password': config.apiPassword } })).statusCode).toBe(200);
        });
        const lines = refused.split('\n').map((l) => JSON.parse(l));
        expect(lines).toEqual([expect.objectContaining({ level: 40, status: 401, url: '/api/v1/enduser/address_book', msg: 'request completed' })]);
        expect(refused).not.toContain('nope-not-a-token');
      } finally {
        await app.close();
      }
    });
  },
  {},
  { logger: { level: 'info', stream: sink } },
);

it('redactUrl and the request serializer: every spelling of a credential name, nothing else touched', () => {
  expect(redactUrl('/api/v1/enduser/events?ticket=abc.def')).toBe('/api/v1/enduser/events?ticket=[REDACTED]');
  expect(redactUrl('/x?Ticket=a&ticket=b&ticket')).toBe('/x?Ticket=[REDACTED]&ticket=[REDACTED]&ticket=[REDACTED]');
  expect(redactUrl('/x?%74oken=a&token%5B%5D=b&api-key=c&x_api_key=d&sessionId=e')).toBe(
    '/x?%74oken=[REDACTED]&token%5B%5D=[REDACTED]&api-key=[REDACTED]&x_api_key=[REDACTED]&sessionId=[REDACTED]',
  );
  expect(redactUrl('/x?search=token&sort=created_at&order=desc&page=2')).toBe('/x?search=token&sort=created_at&order=desc&page=2');
  expect(redactUrl('/media/0123456789abcdef0123456789abcdef.png')).toBe('/media/0123456789abcdef0123456789abcdef.png');
  expect(redactUrl('/x?%E0%A4%A=1&key=2')).toBe('/x?%E0%A4%A=1&key=[REDACTED]');
  // the raw request too (an error logged before Fastify's request exists)
  expect(LOG_SERIALIZERS.req({ method: 'GET', url: '/x?signature=s', headers: {} })).toMatchObject({ method: 'GET', url: '/x?signature=[REDACTED]' });
});
