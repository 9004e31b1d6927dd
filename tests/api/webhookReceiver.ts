import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; timestamp: string; data: { id: number; transport_request_status_id: number } & Record<string, unknown> };
}

/**
 * A local webhook receiver (node:http on 127.0.0.1) for the tests and bench:faults: it records every
 * message and answers what `answer` says for it (a status, or 'hang' to never answer).
 */
export async function startReceiver(answer: (n: number, r: Received) => number | 'hang' = () => 204) {
  const received: Received[] = [];
  /** what was answered to each message received, in the same order */
  const answers: Array<number | 'hang'> = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const r: Received = { headers: req.headers, body, json: JSON.parse(body) };
      received.push(r);
      const a = answer(received.length, r);
      answers.push(a);
      if (a === 'hang') hanging.push(res);
      else res.writeHead(a).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
