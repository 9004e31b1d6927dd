import type { TestProject } from 'vitest/node';
import { makeTemplates, type PortalTemplates } from './portalTemplate.js';
import { useTestHashing } from '../../server/lib/passwords.js';

declare module 'vitest' {
  export interface ProvidedContext {
    portalTemplates: PortalTemplates;
    /** the run's Chromium (browser project): every browser test file connects to it (tests/browser/harness.ts) */
    chromiumEndpoint: string | null;
  }
}

/**
 * Global setup of the api and browser projects, once per run in Vitest's main process: the migrated
 * and seeded databases the portals copy (portalTemplate.ts); for the browser project also one Chromium
 * the test files connect to, instead of each starting and closing its own (about 1.3 s a file against
 * 0.2 s to connect, measured under load; each file still gets fresh contexts, its own cookies and storage).
 */
export default async function setup(project: TestProject) {
  // The templates' demo accounts at the tests' hashing cost, as every portal of the tests (tests/setup/testHashing.ts).
  useTestHashing(true);
  const made = await makeTemplates(project.name === 'api' ? process.env.TEST_DATABASE_URL : undefined);
  project.provide('portalTemplates', made.templates);
  let server: import('playwright-core').BrowserServer | undefined;
  if (project.name.startsWith('browser')) {
    const { browserAvailable, launchBrowserServer } = await import('../browser/harness.js');
    if (browserAvailable) server = await launchBrowserServer();
  }
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? null);
  return async () => {
    await server?.close();
    await made.dispose();
  };
}
