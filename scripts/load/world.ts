/**
 * Who takes part in the load: on top of the demo set (carrier Acme, its end-user company Rossi, the
 * three demo logins), three more end-user companies of Acme copied from Rossi (same pricing settings),
 * three end users per company, two more Acme staff (Carrier Users) and a second admin (Admin Users),
 * all with the demo password. Several accounts and companies spread the work as real traffic does
 * (tokens, tickets and request lists per company) and keep any per-account limit from being the
 * bottleneck. Written directly in the database before the servers start.
 */
import type { DbHandle } from '../../server/db/index.js';
import { hashPassword } from '../../server/lib/passwords.js';
import { nowIso } from '../../server/lib/tokens.js';
import { USER_ROLE } from '../../model/roles.js';
import { call } from './http.js';

export const PASSWORD = 'demo1234';
const EXTRA_COMPANIES = 3;
const USERS_PER_COMPANY = 3;

export interface Actor {
  kind: 'enduser' | 'carrier' | 'admin';
  email: string;
  userId: number;
  companyId: number;
  name: string;
  /** the loopback address this user's browser calls from */
  address: string;
  /** the session every other call uses */
  token: string;
  /** sessions opened by the sign-in calls of the load, closed again by its sign-out calls */
  spare: string[];
}

export interface World {
  acme: number;
  endUserCompanies: number[];
  endUsers: Actor[];
  carriers: Actor[];
  admins: Actor[];
  all: Actor[];
  docType: number;
  ticketCategories: number[];
}

export async function prepareWorld(h: DbHandle) {
  const db = h.db;
  const now = nowIso();
  const companyId = async (name: string) => Number((await db.selectFrom('companies').select('id').where('legal_name', '=', name).executeTakeFirstOrThrow()).id);
  const acme = await companyId('Acme Trasporti S.r.l.');
  const rossi = await db.selectFrom('companies').selectAll().where('legal_name', '=', 'Rossi Logistica S.r.l.').executeTakeFirstOrThrow();
  const { id: rossiId, ...template } = rossi;
  const hash = await hashPassword(PASSWORD);
  const user = (company_id: number, role_id: number, email: string, first_name: string, last_name: string) => ({
    role_id,
    company_id,
    first_name,
    last_name,
    email,
    password_hash: hash,
    status_id: 1,
    created_at: now,
    updated_at: now,
  });
  const users = [];
  for (let c = 1; c <= EXTRA_COMPANIES + 1; c++) {
    let id = Number(rossiId);
    if (c > 1) {
      id = Number(
        (
          await db
            .insertInto('companies')
            .values({
              ...template,
              legal_name: `Carico ${c} S.r.l.`,
              domestic_email: `spedizioni@carico${c}.load`,
              fax: null,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    }
    for (let u = c === 1 ? 2 : 1; u <= USERS_PER_COMPANY; u++) users.push(user(id, USER_ROLE.ENDUSER, `eu${c}.${u}@load.demo`, `Utente${u}`, `Azienda${c}`));
  }
  users.push(
    user(acme, USER_ROLE.CARRIER_USERS, 'staff1@load.demo', 'Sara', 'Sportello'),
    user(acme, USER_ROLE.CARRIER_USERS, 'staff2@load.demo', 'Paolo', 'Piazzale'),
  );
  const adminCompany = (await db.selectFrom('users').select('company_id').where('email', '=', 'admin@portal.demo').executeTakeFirstOrThrow()).company_id;
  users.push(user(adminCompany, USER_ROLE.ADMIN_USERS, 'admin2@load.demo', 'Dario', 'Direzione'));
  await db.insertInto('users').values(users).execute();
}

/** Reads the participants back and signs each one in once (before the measured run). */
export async function loadWorld(h: DbHandle, base: string): Promise<World> {
  const db = h.db;
  const acme = Number((await db.selectFrom('companies').select('id').where('legal_name', '=', 'Acme Trasporti S.r.l.').executeTakeFirstOrThrow()).id);
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'company_id', 'role_id', 'first_name', 'last_name'])
    .where((eb) => eb.or([eb('email', 'like', '%@load.demo'), eb('email', 'in', ['admin@portal.demo', 'carrier@portal.demo', 'enduser@portal.demo'])]))
    .orderBy('id')
    .execute();
  const kindOf = (role: number) => (role === USER_ROLE.ENDUSER ? 'enduser' : role === USER_ROLE.ADMIN || role === USER_ROLE.ADMIN_USERS ? 'admin' : 'carrier');
  const all: Actor[] = [];
  for (const [i, r] of rows.entries()) {
    const address = `127.0.2.${i + 1}`;
    const login = await call({ base, from: address, method: 'POST', path: '/visitor/login', json: { email: r.email, password: PASSWORD } });
    if (login.status !== 200) throw new Error(`sign-in of ${r.email} failed: ${login.status} ${JSON.stringify(login.body)}`);
    all.push({
      kind: kindOf(r.role_id),
      email: r.email,
      userId: Number(r.id),
      companyId: Number(r.company_id),
      name: `${r.first_name} ${r.last_name}`,
      address,
      token: login.body.token,
      spare: [],
    });
  }
  const endUsers = all.filter((a) => a.kind === 'enduser');
  const docType = await db.selectFrom('document_types').select('id').where('active', '=', '1').orderBy('id').executeTakeFirst();
  if (!docType) throw new Error('no active document type in the reference data');
  const categories = await db.selectFrom('ticket_categories').select('id').orderBy('id').execute();
  if (!categories.length) throw new Error('no ticket category in the reference data');
  return {
    acme,
    endUserCompanies: [...new Set(endUsers.map((a) => a.companyId))],
    endUsers,
    carriers: all.filter((a) => a.kind === 'carrier'),
    admins: all.filter((a) => a.kind === 'admin'),
    all,
    docType: Number(docType.id),
    ticketCategories: categories.map((c) => Number(c.id)),
  };
}
