import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * The transport-request list at a million rows (issue 11): p95 ≤ 50 ms on both databases.
 *
 * 1. Totals. The pager shows the last page, so the list answers an exact `total`; `count(*)` over a
 *    carrier's half a million rows read that many index entries on every call (~25 ms SQLite, ~130 ms
 *    PostgreSQL). `transport_request_counts` keeps the number of requests per carrier, end-user company
 *    (0 for a visitor's request) and status, so a total without a date filter is a sum over a few rows
 *    per status (`transportRequests.page()`; with a date filter the day's index range is counted, a
 *    day holds a few thousand rows at most).
 *    Triggers keep it, not the repositories: they run inside the statement that inserts, updates or
 *    deletes a request, so every writer (routes, the seed, tests, a manual fix in SQL, code still to be
 *    written) keeps it exact, in the same transaction. PostgreSQL: statement triggers over transition
 *    tables, one upsert per statement that adds the per-key differences, taken in key order, so two
 *    concurrent status changes lock the counters in the same order (no deadlock) and an upsert
 *    (`on conflict do update`) never loses a concurrent increment; concurrent creates of one carrier
 *    queue on its counter row only until commit. SQLite has one writer at a time: row triggers.
 *    Counters that reach 0 stay (harmless, and no foreign key on companies: a company without
 *    requests stays deletable).
 *
 * 2. Order. The list sorts by date (default, newest first), id, total (cost) or status, each way,
 *    ties by id, in three scopes (all, a carrier, an end-user company), with or without a status filter.
 *    With LIMIT/OFFSET a page is cheap only when an index hands the rows over in that order after the
 *    equality filters: the 0008 indexes covered the date order; these add, for each scope prefix P
 *    (none, carrier_id, enduser_company_id): (P, id) — none needed for P empty, the primary key —,
 *    (P, cost, id), (P, status, id) (the status order, and the id order under a status filter) and
 *    (P, status, cost, id). A date filter narrows to one day, sorted in memory. Every index ends in
 *    the selected `id`, so PostgreSQL answers a page from the index alone (index-only scan) where
 *    the visibility map allows. The last pages are read backwards (`page()`), so the cost of a page
 *    grows with its distance from the nearer end, not from the first page.
 *
 * On an existing table: PostgreSQL locks writes to transport_requests for the migration (it runs in
 * the migrator's transaction; reads go on), SQLite writes it in one transaction; the counters are
 * filled from one grouped scan. `npm run bench:requests` times it at a million rows.
 */
const INDEXES: Array<[string, string[]]> = [
  ['transport_requests_carrier_id', ['carrier_id', 'id']],
  ['transport_requests_enduser_id', ['enduser_company_id', 'id']],
  ['transport_requests_cost', ['cost', 'id']],
  ['transport_requests_carrier_cost', ['carrier_id', 'cost', 'id']],
  ['transport_requests_enduser_cost', ['enduser_company_id', 'cost', 'id']],
  ['transport_requests_status_id', ['transport_request_status_id', 'id']],
  ['transport_requests_carrier_status_id', ['carrier_id', 'transport_request_status_id', 'id']],
  ['transport_requests_enduser_status_id', ['enduser_company_id', 'transport_request_status_id', 'id']],
  ['transport_requests_status_cost', ['transport_request_status_id', 'cost', 'id']],
  ['transport_requests_carrier_status_cost', ['carrier_id', 'transport_request_status_id', 'cost', 'id']],
  ['transport_requests_enduser_status_cost', ['enduser_company_id', 'transport_request_status_id', 'cost', 'id']],
];

const KEY = 'carrier_id, enduser_company_id, transport_request_status_id';

/** PostgreSQL: the per-key differences of one statement's old and new rows, added in key order. */
const pgFunction = (name: string, rows: string) =>
  sql.raw(`
  create function ${name}() returns trigger language plpgsql as $$
  begin
    insert into transport_request_counts as c (${KEY}, n)
    select carrier_id, e, transport_request_status_id, sum(d) from (${rows}) x
    group by carrier_id, e, transport_request_status_id
    having sum(d) <> 0
    order by carrier_id, e, transport_request_status_id
    on conflict (${KEY}) do update set n = c.n + excluded.n;
    return null;
  end $$`);
const NEW_ROWS = 'select carrier_id, coalesce(enduser_company_id, 0) as e, transport_request_status_id, 1 as d from new_rows';
const OLD_ROWS = 'select carrier_id, coalesce(enduser_company_id, 0) as e, transport_request_status_id, -1 as d from old_rows';

/** SQLite: one row's +1 / -1. */
const add = (row: 'new' | 'old', d: 1 | -1) => `
    insert into transport_request_counts (${KEY}, n)
    values (${row}.carrier_id, coalesce(${row}.enduser_company_id, 0), ${row}.transport_request_status_id, ${d})
    on conflict (${KEY}) do update set n = n + (${d});`;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const run = (q: string) => sql.raw(q).execute(db);
  // Both dialects run pending migrations inside the migrator's one transaction (server/db: SQLite declares
  // transactional DDL too). PostgreSQL: the lock keeps writers out until commit, so the counters filled
  // below are exactly the table's rows; SQLite: the create table takes the write lock first.
  if (pg) await run('lock table transport_requests in share row exclusive mode');
  await db.schema
    .createTable('transport_request_counts')
    .addColumn('carrier_id', 'integer', (c) => c.notNull())
    .addColumn('enduser_company_id', 'integer', (c) => c.notNull())
    .addColumn('transport_request_status_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('transport_request_counts_pk', ['carrier_id', 'enduser_company_id', 'transport_request_status_id'])
    .execute();
  await db.schema.createIndex('transport_request_counts_enduser').on('transport_request_counts').columns(['enduser_company_id']).execute();
  if (pg) {
    await pgFunction('transport_request_counts_insert', NEW_ROWS).execute(db);
    await pgFunction('transport_request_counts_update', `${OLD_ROWS} union all ${NEW_ROWS}`).execute(db);
    await pgFunction('transport_request_counts_delete', OLD_ROWS).execute(db);
    await run(`create function transport_request_counts_truncate() returns trigger language plpgsql as $$
      begin delete from transport_request_counts; return null; end $$`);
    await run(`create trigger transport_request_counts_insert after insert on transport_requests
      referencing new table as new_rows for each statement execute function transport_request_counts_insert()`);
    await run(`create trigger transport_request_counts_update after update on transport_requests
      referencing old table as old_rows new table as new_rows for each statement execute function transport_request_counts_update()`);
    await run(`create trigger transport_request_counts_delete after delete on transport_requests
      referencing old table as old_rows for each statement execute function transport_request_counts_delete()`);
    await run(`create trigger transport_request_counts_truncate after truncate on transport_requests
      for each statement execute function transport_request_counts_truncate()`);
  } else {
    await run(`create trigger transport_request_counts_insert after insert on transport_requests begin ${add('new', 1)} end`);
    await run(`create trigger transport_request_counts_delete after delete on transport_requests begin ${add('old', -1)} end`);
    await run(`create trigger transport_request_counts_update
      after update of carrier_id, enduser_company_id, transport_request_status_id on transport_requests
      when old.carrier_id <> new.carrier_id or old.enduser_company_id is not new.enduser_company_id
        or old.transport_request_status_id <> new.transport_request_status_id
      begin ${add('old', -1)} ${add('new', 1)} end`);
  }
  await run(`insert into transport_request_counts (${KEY}, n)
    select carrier_id, coalesce(enduser_company_id, 0), transport_request_status_id, count(*) from transport_requests
    group by carrier_id, coalesce(enduser_company_id, 0), transport_request_status_id`);
  for (const [name, columns] of INDEXES) await db.schema.createIndex(name).on('transport_requests').columns(columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
  for (const t of ['insert', 'update', 'delete', 'truncate']) {
    await sql.raw(`drop trigger if exists transport_request_counts_${t}${pg ? ' on transport_requests' : ''}`).execute(db);
    if (pg) await sql.raw(`drop function if exists transport_request_counts_${t}()`).execute(db);
  }
  await db.schema.dropTable('transport_request_counts').ifExists().execute();
}
