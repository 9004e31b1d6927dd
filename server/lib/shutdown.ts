import type { FastifyInstance } from 'fastify';

/**
 * The graceful stop of a server process (issue 32), on SIGTERM or SIGINT:
 * 1. `app.close()`: the listening socket closes (no new connection; a request arriving on an open
 *    keep-alive connection is answered 503), every event stream gets a last `closing` event and ends, the
 *    webhook worker starts no new run and gives the attempts under way half the budget before handing them
 *    back (lib/webhooks/worker.ts), the requests in flight are answered (uploads included: their reading
 *    thread is still there), each connection is closed once its answer is sent (server/app.ts), then the
 *    app's own resources (the webhook worker's last records, the live-events connection) are released.
 * 2. `release()`: what the process holds beside the app — timers, the spreadsheet reading pool
 *    (`sharedReadPool().close()`), mails being handed to SMTP, the database.
 * 3. exit 0.
 *
 * All of it within `timeoutMs` (SHUTDOWN_TIMEOUT_MS, default 10 s). Past it the stop is given up: what is
 * left is logged (connections, streams, mails), the remaining connections are cut and the process exits
 * **1** — not 0, because answers were lost and a supervisor or an operator should see that the stop was not
 * clean (the data are safe either way: every write is a transaction, SQLite's journal and PostgreSQL roll
 * back what did not commit). A second signal while stopping is logged and otherwise ignored: `npm start` in a
 * terminal gets Ctrl-C's SIGINT both from the terminal and forwarded by its supervisor, and the timeout
 * already bounds the stop.
 */
export interface StopOptions {
  app: FastifyInstance;
  timeoutMs: number;
  /** After the app has closed: what the process holds beside it. */
  release: () => Promise<void>;
  /** What is still under way, for the log line of a stop that timed out. */
  pending?: () => Record<string, number>;
  exit?: (code: number) => void;
}

export function gracefulStop({ app, timeoutMs, release, pending = () => ({}), exit = (code) => process.exit(code) }: StopOptions) {
  let stopping = false;
  return function stop(signal: string) {
    if (stopping) {
      app.log.info({ signal }, 'already stopping');
      return;
    }
    stopping = true;
    const started = Date.now();
    app.log.info({ signal, timeoutMs }, 'stopping: no new connections, answering the requests in flight');
    // Not unref'd: it is what guarantees the exit should the stop hang on something that holds no handle.
    const timer = setTimeout(() => {
      app.server.getConnections((_err, connections) => {
        app.log.error({ timeoutMs, connections, ...pending() }, 'stop timed out: cutting the remaining connections, exit 1');
        app.server.closeAllConnections();
        exit(1);
      });
    }, timeoutMs);
    app
      .close()
      .then(release)
      .then(
        () => {
          clearTimeout(timer);
          app.log.info({ ms: Date.now() - started }, 'stopped');
          exit(0);
        },
        (err: unknown) => {
          clearTimeout(timer);
          app.log.error({ err }, 'stop failed, exit 1');
          exit(1);
        },
      );
  };
}
