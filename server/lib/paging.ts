import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * The highest page a list serves: page × per_page must stay an offset both databases take (SQLite
 * refuses a non-integer offset and PostgreSQL one past bigint; 10 million pages of 100 rows is far
 * past any list here). Beyond it the schema answers 422, below it an empty page.
 */
export const MAX_PAGE = 10_000_000;

/** Query-string schema of every list: page (from 1), per_page (default 15, at most 100), sort, order. */
export function listQuerySchema(sortable: readonly string[], filters: Record<string, object> = {}) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
      sort: { type: 'string', enum: [...sortable] },
      order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
      ...filters,
    },
  } as const;
}

export interface ListQuery {
  /** Given by the schema's default when absent. */
  page?: number;
  per_page?: number;
  sort?: string;
  order?: string;
}

export interface Page<T> {
  data: T[];
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
}

/**
 * Runs a filtered select as one page: counts the rows, then fetches the page in the requested order
 * (`sort` must be one of the columns the route's schema lists; ties broken by id).
 */
export async function paginate<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  q: ListQuery,
  opts: {
    sortColumns: Record<string, string>;
    defaultSort?: string;
    defaultOrder?: 'asc' | 'desc';
    idColumn?: string;
    /** ties broken by id in the requested order too (a log "newest first": two entries of the same millisecond) */
    tiesInOrder?: boolean;
  } = { sortColumns: {} },
): Promise<Page<O>> {
  const countRow = await (qb as any)
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  const per = q.per_page ?? 15;
  const last = Math.max(1, Math.ceil(total / per));
  const page = q.page ?? 1;
  const sortKey = q.sort && opts.sortColumns[q.sort] ? q.sort : opts.defaultSort;
  const order = (q.order ?? opts.defaultOrder ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
  let rq: any = qb;
  if (sortKey && opts.sortColumns[sortKey]) rq = rq.orderBy(opts.sortColumns[sortKey], order);
  rq = rq.orderBy(opts.idColumn ?? 'id', sortKey && !opts.tiesInOrder ? 'asc' : order);
  const data = await rq
    .limit(per)
    .offset((page - 1) * per)
    .execute();
  return { data, current_page: page, per_page: per, last_page: last, total };
}

/** The companies / access-requests shape: `{data, meta: {...}}`. */
export const withMeta = <T>(p: Page<T>) => ({
  data: p.data,
  meta: { current_page: p.current_page, per_page: p.per_page, last_page: p.last_page, total: p.total },
});
