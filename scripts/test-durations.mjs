// `npm run test:durations`: writes tests/durations.json, how long each test file took (ms), from the JSON report of the
// last `npm test` (test-results/vitest.json). tests/setup/sequencer.ts starts the longest files first with it where
// Vitest's results cache does not know them (a clean clone). Run it after a full `npm test` when files were added or
// became much longer; a stale file only changes the order.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const report = JSON.parse(fs.readFileSync(path.join(root, 'test-results', 'vitest.json'), 'utf8'));
const durations = {};
for (const f of report.testResults ?? []) {
  if (!f.startTime || !f.endTime) continue;
  durations[path.relative(root, f.name).split(path.sep).join('/')] = Math.round(f.endTime - f.startTime);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
fs.writeFileSync(path.join(root, 'tests', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`);
