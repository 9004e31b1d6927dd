import type { Migration } from 'kysely';
import * as m0001 from './0001_core.js';
import * as m0002 from './0002_tariffs.js';
import * as m0007 from './0007_requests.js';

/** Every migration, in order. Add one line per new migration file. */
export const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_tariffs': m0002,
  '0007_requests': m0007,
};
