import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order of the files: Vitest's own (groups, then projects, then failed files first and the longest first), with
 * the length a file took in the last recorded full run (tests/durations.json, `npm run test:durations`) wherever
 * Vitest's results cache does not know it. A clean clone, as CI's, has no cache: Vitest would then start the
 * largest files (in bytes) first, and a long file with few lines started last made the run's tail (phoneFit.test.ts,
 * a minute alone on one of the two cores). A file neither knows runs first, as in Vitest's order. Only the order
 * comes from the file: a stale entry makes a run slower, never a test fail or skip.
 */
const RECORDED: Record<string, number> = (() => {
  try {
    return JSON.parse(fs.readFileSync(new URL('../durations.json', import.meta.url), 'utf8'));
  } catch {
    return {};
  }
})();

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const known = (f: TestSpecification) => {
      const file = path.relative(root, f.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${file}`);
      return { failed: !!cached?.failed, ms: cached?.duration ?? RECORDED[file] ?? Infinity };
    };
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      if (a.project.config.isolate !== b.project.config.isolate) return a.project.config.isolate ? -1 : 1;
      const ka = known(a);
      const kb = known(b);
      if (ka.failed !== kb.failed) return ka.failed ? -1 : 1;
      return kb.ms === ka.ms ? 0 : kb.ms > ka.ms ? 1 : -1;
    });
  }
}
