import { useTestHashing } from '../../server/lib/passwords.js';

/**
 * The API and browser tests hash passwords and codes at the tests' cost (server/lib/passwords.ts `TEST_HASHING`:
 * argon2id at 1 MiB and 1 iteration instead of 19 MiB and 2), as Django's test settings use a fast hasher: the
 * suite makes some 3 000 hashes and verifications a run. The global setup does the same for the templates'
 * demo accounts (tests/setup/globalSetup.ts). A test of the portal's own cost switches back for its duration.
 */
useTestHashing(true);
