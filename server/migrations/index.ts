import type { Migration } from 'kysely';
import * as m0001 from './0001_core.js';
import * as m0002 from './0002_tariffs.js';
import * as m0003 from './0003_reference.js';
import * as m0004 from './0004_accounts.js';
import * as m0006 from './0006_chat.js';
import * as m0007 from './0007_pricing_indexes.js';
import * as m0008 from './0008_requests.js';
import * as m0009RequestList from './0009_request_list.js';

/** Every migration, in order. Add one line per new migration file. */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_tariffs': m0002,
  '0003_reference': m0003,
  '0004_accounts': m0004,
  '0006_chat': m0006,
  '0007_pricing_indexes': m0007,
  '0008_requests': m0008,
  '0009_request_list': m0009RequestList,
};
