// The reading pool's thread entry (read/pool.ts): the server runs from its TypeScript sources, so the
// worker loads read/worker.ts through tsx's own loader, whatever started the process (npm start, the
// tests, a script).
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
