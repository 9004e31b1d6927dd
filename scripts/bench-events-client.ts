/**
 * A client process of `npm run bench:events`: opens the streams of the sessions it is given (as that many
 * browser tabs would) and reports, per chat message, when each of its streams had it. Times are
 * `performance.timeOrigin + performance.now()` (milliseconds of the wall clock, comparable across processes).
 * IPC: `{base, password, tokens}` → `{opened}`; then `{id, times}` for each message once all its streams have it.
 */
import http from 'node:http';

const now = () => performance.timeOrigin + performance.now();

process.once('message', (start: { base: string; password: string; tokens: string[] }) => {
  void run(start).catch((err) => {
    console.error(err);
    process.exit(1);
  });
});

async function run({ base, password, tokens }: { base: string; password: string; tokens: string[] }) {
  const arrivals = new Map<number, number[]>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const sockets: http.ClientRequest[] = [];
  const openOne = async (token: string) => {
    const r = await fetch(`${base}/enduser/events/ticket`, { method: 'POST', headers: { 'x-api-password': password, authorization: `Bearer ${token}` } });
    if (!r.ok) throw new Error(`ticket: ${r.status}`);
    const ticket = ((await r.json()) as { data: { ticket: string } }).data.ticket;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/enduser/events?ticket=${encodeURIComponent(ticket)}`, { agent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        resolve();
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = now();
          buf += chunk;
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            if (!block.includes('event: chat.message')) continue;
            const id = Number(/"message_id":(\d+)/.exec(block)?.[1]);
            const list = arrivals.get(id) ?? [];
            list.push(at);
            arrivals.set(id, list);
            if (list.length === tokens.length) {
              process.send?.({ id, times: list });
              arrivals.delete(id);
            }
          }
        });
      });
      req.on('error', reject);
      sockets.push(req);
    });
  };
  for (let i = 0; i < tokens.length; i += 25) await Promise.all(tokens.slice(i, i + 25).map(openOne));
  process.send?.({ opened: sockets.length });
  process.on('disconnect', () => {
    for (const s of sockets) s.destroy();
    process.exit(0);
  });
}
