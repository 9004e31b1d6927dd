/**
 * What the fault runs do to the server while it is killed or cut off from PostgreSQL: tariff-table
 * uploads and deletes, rate-sheet uploads and deletes (a few thousand rows each) and transport-request
 * creations (by hand with documents, and from a quote), through the real HTTP API, concurrently.
 * Every call is recorded as an Op with how it ended, so the checks know what was acknowledged.
 *
 * Each upload and request carries a tag of its own (in the rows, the sheet's description, the request's
 * notes), so the checks can tell which call a stored row came from and count its rows exactly.
 */
import * as XLSX from '@e965/xlsx';
import { addDays, romeDate } from '../../server/lib/romeTime.js';
import { API_PASSWORD } from './server.js';
import { mulberry32 } from '../../scripts/benchKit.js';

/** acked: 2xx with status true; refused: a clean 4xx or `status: false`; failed: a clean 5xx; lost: no answer (killed, reset). */
export type OpState = 'pending' | 'acked' | 'refused' | 'failed' | 'lost';
export type OpKind = 'tableUpload' | 'tableDelete' | 'sheetUpload' | 'sheetDelete' | 'request';

export interface Op {
  id: number;
  round: number;
  kind: OpKind;
  /** the table key, 'sheets' or 'requests' */
  lane: string;
  tag: string;
  /** rows of the uploaded file */
  rows?: number;
  /** a request: pallets or goods lines per shipment, and documents */
  details?: number[];
  documents?: number;
  /** a sheet upload's answer, or the sheet a delete names */
  sheetId?: number;
  categoryId?: number;
  state: OpState;
  status?: number;
  message?: string;
  /** a 5xx or lost answer whose write turned out committed (set by the checks) */
  committed?: boolean;
  startedAt: number;
  ms?: number;
}

/** A small seeded generator (mulberry32), so a run can be repeated from its printed seed. */
export function rng(seed: number) {
  const next = mulberry32(seed);
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}

type Answer = { status: number; body: any };

export async function call(base: string, method: string, url: string, opts: { token?: string; json?: unknown; form?: FormData } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-password': API_PASSWORD, 'accept-language': 'it' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

function xlsx(aoa: Array<Array<string | number>>): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'data');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/** The three tariff tables the runs load, each file holding its upload's tag in every row. */
export const TABLES = {
  express_hub_codes: {
    field: 'hub_codes',
    table: 'express_hub_codes',
    tagColumn: 'hub',
    tagOf: (tag: string) => `H${tag}`,
    file: (tag: string, n: number) => xlsx([['code', 'hub'], ...Array.from({ length: n }, (_, i) => [String(10000 + i), `H${tag}`])]),
  },
  standard_special_zone: {
    field: 'standard_special_zone',
    table: 'standard_special_zones',
    tagColumn: 'code',
    tagOf: (tag: string) => tag,
    file: (tag: string, n: number) =>
      xlsx([['province', 'code', 'city', 'postal_code'], ...Array.from({ length: n }, (_, i) => ['MI', tag, 'Milano', String(20000 + i)])]),
  },
  standard_no_passage: {
    field: 'standard_no_passage',
    table: 'standard_no_passage',
    tagColumn: 'code',
    tagOf: (tag: string) => tag,
    file: (tag: string, n: number) =>
      xlsx([
        ['postal_code', 'city', 'cost', 'province', 'flow', 'special_zone', 'company_iso_2', 'code', 'rate_code', 'cost2', 'col_11'],
        ...Array.from({ length: n }, (_, i) => [
          String(30000 + i),
          'Venezia',
          12 + (i % 50) / 4,
          'VE',
          i % 2 ? 'IN' : 'OUT',
          'LAG',
          'IT',
          tag,
          'STD25',
          1.5,
          'barca',
        ]),
      ]),
  },
} as const;
export type TableKey = keyof typeof TABLES;

/** A national standard rate sheet: zones of five brackets, the tag as every row's rate code. */
export function sheetFile(tag: string, n: number): Buffer {
  const brackets = [
    [0, 100],
    [100, 300],
    [300, 1000],
    [1000, 3000],
    [3000, 10000],
  ];
  const rows: Array<Array<string | number>> = [['rate_code', 'country', 'zone_code', 'weight_from', 'weight_to', 'price', 'unit', 'minimum', 'leadtime']];
  for (let i = 0; i < n; i++) {
    const [from, to] = brackets[i % 5];
    rows.push([tag, 'IT', String(10000 + Math.floor(i / 5)), from, to, 18 + (i % 97) / 10, i % 5 ? 'Q' : 'S', i % 5 ? 25 : 0, 2 + (i % 3)]);
  }
  return xlsx(rows);
}

/** What the runs sign in as and work on, set up once per database. */
export interface World {
  base: string;
  admin: string;
  enduser: string;
  /** a carrier of its own, so the uploads never touch the demo carrier's tariffs the quoted requests are priced with */
  companyId: number;
  docType: number;
  /** the demo end user's price for QUOTE (SILVER), read from the quote call */
  quote: { cost: string; fee: string };
}

export const QUOTE = {
  zone: 'national',
  service: 'palletExpress',
  flow: 'OUT',
  originCountry: 'IT',
  originPostalCode: '40133',
  originLocality: 'Bologna',
  originProvince: 'BO',
  destinationCountry: 'IT',
  destinationPostalCode: '00184',
  destinationLocality: 'Roma',
  destinationProvince: 'RM',
  palletWeight: ['250', '480'],
  palletWidth: ['120', '120'],
  palletLength: ['80', '100'],
  palletHeight: ['90', '140'],
};

function shipment(i: number): Record<string, string> {
  const pickup = addDays(romeDate(), 1);
  return {
    shipperref: `RIF-${i + 1}`,
    consigneeref: `DEST-${i + 1}`,
    adr: '0',
    taillift: '0',
    pickupdate: pickup,
    pickuptimefrom: '08:00',
    pickuptimeto: '12:00',
    pickuplocationname: 'Magazzino Rossi',
    pickupaddress: 'Via Emilia 120',
    pickuppostalcode: '40133',
    pickupcity: 'Bologna',
    pickupprovince: 'BO',
    pickupcountry: 'IT',
    pickupnotes: '',
    deliverydate: '',
    deliverytimefrom: '',
    deliverytimeto: '',
    deliverylocationname: 'Cliente Roma',
    deliveryaddress: 'Via Appia 5',
    deliverypostalcode: '00183',
    deliverycity: 'Roma',
    deliveryprovince: 'RM',
    deliverycountry: 'IT',
    deliverynotes: '',
    units: String(1 + i),
    weight: '450.5',
    volume: '2.4',
    volumeType: 'CBM',
  };
}

/** A multipart body: lists as `name[]`, files as blobs. */
function formOf(fields: Record<string, string | string[]>, files: Array<{ field: string; name: string; data: Buffer }> = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) for (const item of v) fd.append(`${k}[]`, item);
    else fd.append(k, v);
  }
  for (const f of files) fd.append(f.field, new Blob([new Uint8Array(f.data)]), f.name);
  return fd;
}

/** Where each lane stands between calls: a table's set (empty, a tag, or unknown after a call without a clear answer). */
export interface LaneState {
  tables: Record<TableKey, 'empty' | 'unknown' | string>;
  /** acknowledged sheets not yet deleted, oldest first */
  sheets: Array<{ id: number; tag: string }>;
}

export interface Workload {
  ops: Op[];
  /** stop issuing new calls (those under way finish or are lost) */
  stop(): void;
  /** every lane has ended */
  done: Promise<void>;
}

/**
 * Runs the lanes until stopped: one per table (delete the set when it holds one, upload a new file),
 * one for rate sheets (upload one, delete the oldest when more than two), two for requests
 * (alternately by hand with documents, and from the quote). In kill mode a lane ends at its first
 * call without an answer (the server is gone); in cut mode the lanes carry on.
 */
export function startWorkload(
  w: World,
  lanes: LaneState,
  seq: { next: number },
  round: number,
  random: ReturnType<typeof rng>,
  mode: 'kill' | 'cut',
  ops: Op[],
): Workload {
  let stopped = false;
  const tag = () => `F${round}N${seq.next++}`;
  async function run(op: Omit<Op, 'id' | 'state' | 'startedAt' | 'round'>, send: () => Promise<Answer>): Promise<Op> {
    const o: Op = { ...op, id: ops.length + 1, round, state: 'pending', startedAt: Date.now() };
    ops.push(o);
    try {
      const a = await send();
      o.status = a.status;
      o.message = typeof a.body === 'object' ? a.body?.message : String(a.body).slice(0, 200);
      if (a.status >= 200 && a.status < 300 && a.body?.status === true) o.state = 'acked';
      else if (a.status < 500) o.state = 'refused';
      else o.state = 'failed';
      if (o.state === 'acked' && a.body?.data?.id && op.kind === 'sheetUpload') {
        o.sheetId = a.body.data.id;
        o.categoryId = a.body.data.category_id;
      }
    } catch {
      o.state = 'lost';
    }
    o.ms = Date.now() - o.startedAt;
    return o;
  }
  const ended = (o: Op) => stopped || (mode === 'kill' && o.state === 'lost');

  async function tableLane(key: TableKey) {
    const t = TABLES[key];
    while (!stopped) {
      if (lanes.tables[key] !== 'empty') {
        const d = await run({ kind: 'tableDelete', lane: key, tag: '' }, () =>
          call(w.base, 'POST', `/admin/${key}/destroy`, { token: w.admin, json: { company_id: w.companyId } }),
        );
        lanes.tables[key] = d.state === 'acked' ? 'empty' : 'unknown';
        if (ended(d)) return;
        continue;
      }
      const id = tag();
      const rows = random.int(1500, 3500);
      const data = t.file(id, rows);
      const u = await run({ kind: 'tableUpload', lane: key, tag: id, rows }, () =>
        call(w.base, 'POST', `/admin/${key}/store`, {
          token: w.admin,
          form: formOf({ company_id: String(w.companyId) }, [{ field: t.field, name: `${key}.xlsx`, data }]),
        }),
      );
      lanes.tables[key] = u.state === 'acked' ? id : 'unknown';
      if (ended(u)) return;
    }
  }

  async function sheetLane() {
    while (!stopped) {
      if (lanes.sheets.length > 2) {
        const s = lanes.sheets[0];
        const d = await run({ kind: 'sheetDelete', lane: 'sheets', tag: s.tag, sheetId: s.id }, () =>
          call(w.base, 'POST', `/admin/rate_sheet/destroy/${s.id}`, { token: w.admin, json: { company_id: w.companyId } }),
        );
        // A delete without a clear answer may have happened: the sheet is not deleted twice.
        if (d.state !== 'refused') lanes.sheets.shift();
        if (ended(d)) return;
        continue;
      }
      const id = tag();
      const rows = random.int(1500, 3500);
      const data = sheetFile(id, rows);
      const u = await run({ kind: 'sheetUpload', lane: 'sheets', tag: id, rows }, () =>
        call(w.base, 'POST', '/admin/rate_sheet/store', {
          token: w.admin,
          form: formOf(
            {
              company_id: String(w.companyId),
              zone: 'NAT',
              rate_type: 'STD',
              area: 'Customer',
              validate_from: '2025-01-01',
              validate_to: '2030-12-31',
              is_standard: '0',
              description: id,
            },
            [{ field: 'rate_sheet', name: `${id}.xlsx`, data }],
          ),
        }),
      );
      if (u.state === 'acked') lanes.sheets.push({ id: u.sheetId!, tag: id });
      if (ended(u)) return;
    }
  }

  async function requestLane(lane: number) {
    for (let k = 0; !stopped; k++) {
      const id = tag();
      const quoted = (k + lane) % 2 === 1;
      let fields: Record<string, string | string[]>;
      let files: Array<{ field: string; name: string; data: Buffer }> = [];
      let details: number[];
      if (quoted) {
        const s = shipment(0);
        fields = {
          ...QUOTE,
          ...Object.fromEntries(Object.entries(s).map(([f, v]) => [f, [v]])),
          shipmentclass: 'SILVER',
          cost: w.quote.cost,
          admin_fees: w.quote.fee,
          notes: id,
        };
        details = [QUOTE.palletWeight.length];
      } else {
        const n = random.int(1, 5);
        const list = Array.from({ length: n }, (_, i) => shipment(i));
        fields = { notes: id };
        for (const f of Object.keys(list[0])) fields[f] = list.map((s) => s[f]);
        const docs = random.int(0, 3);
        files = Array.from({ length: docs }, (_, i) => ({
          field: 'documents[]',
          name: `doc${i}.pdf`,
          data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000 + i, 65)]),
        }));
        if (docs) fields.doctypes = files.map(() => String(w.docType));
        details = list.map(() => 1);
      }
      const o = await run({ kind: 'request', lane: 'requests', tag: id, details, documents: files.length }, () =>
        call(w.base, 'POST', '/enduser/transport_requests/newRequest', {
          token: w.enduser,
          form: formOf(fields, files),
        }),
      );
      if (ended(o)) return;
    }
  }

  const done = Promise.all([...(Object.keys(TABLES) as TableKey[]).map(tableLane), sheetLane(), requestLane(0), requestLane(1)]).then(() => undefined);
  return {
    ops,
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/** Signs in, makes the carrier the uploads go to, reads a document type and the quote's price. */
export async function setupWorld(base: string, db: import('../../server/db/index.js').Db): Promise<World> {
  const login = async (email: string) => {
    const r = await call(base, 'POST', '/visitor/login', { json: { email, password: 'demo1234' } });
    if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  };
  const admin = await login('admin@portal.demo');
  const enduser = await login('enduser@portal.demo');
  const now = new Date().toISOString();
  const company = await db
    .insertInto('companies')
    .values({
      legal_name: 'Guasti Trasporti S.r.l.',
      company_role_id: 2,
      status_id: 1,
      is_inbound: 1,
      type: 'Customer',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const docType = await db.selectFrom('document_types').select('id').where('active', '=', '1').orderBy('id').executeTakeFirstOrThrow();
  const q = await call(base, 'POST', '/visitor/costRequest', { token: enduser, json: QUOTE });
  const prices = q.body?.data?.prices_list;
  if (!prices?.x_total_silver_sell) throw new Error(`the demo quote does not price: ${JSON.stringify(q.body).slice(0, 300)}`);
  return {
    base,
    admin,
    enduser,
    companyId: Number(company.id),
    docType: Number(docType.id),
    quote: { cost: String(prices.x_total_silver_sell), fee: String(prices.admin_fee) },
  };
}
