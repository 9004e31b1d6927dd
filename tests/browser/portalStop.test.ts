import net from 'node:net';
import { expect, it } from 'vitest';
import { browserAvailable, startPortal } from './harness.js';

/**
 * The test portal's stop (harness.ts `startPortal().close()`) does not wait for a connection that will not end by
 * itself: the contexts a file hands on to the next (`workerIdle`) stay open while the file's portal stops, and a
 * browser may hold a connection with a request under way, or one opened ahead that never sends one (that one the
 * server closes itself when it stops: tests/api/gracefulStop.test.ts).
 */
it.skipIf(!browserAvailable)('a test portal stops within seconds with a request half sent and a connection that sent nothing', async () => {
  const portal = await startPortal();
  const { port } = new URL(portal.url);
  const open = (first?: string) =>
    new Promise<net.Socket>((done, fail) => {
      const s = net.connect(Number(port), '127.0.0.1', () => {
        if (first) s.write(first);
        done(s);
      });
      s.on('error', fail);
    });
  const half = await open('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  const silent = await open();
  const started = Date.now();
  await portal.close();
  expect(Date.now() - started).toBeLessThan(10_000);
  half.destroy();
  silent.destroy();
});
