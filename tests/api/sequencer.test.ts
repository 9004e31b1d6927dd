import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import LongestFirst from '../setup/sequencer.js';
import recorded from '../durations.json' with { type: 'json' };

/** tests/setup/sequencer.ts: the order of the files, from Vitest's results cache or else tests/durations.json. */
const ROOT = '/repo';
const spec = (project: string, file: string, groupOrder = 0) =>
  ({ moduleId: `${ROOT}/${file}`, project: { name: project, config: { sequence: { groupOrder }, isolate: false } } }) as unknown as TestSpecification;
const order = async (files: TestSpecification[], cache: Record<string, { duration: number; failed: boolean }> = {}) => {
  const sequencer = new LongestFirst({ config: { root: ROOT }, cache: { getFileTestResults: (key: string) => cache[key] } } as never);
  return (await sequencer.sort(files)).map((f) => f.moduleId.slice(ROOT.length + 1));
};

describe('the order of the test files', () => {
  const long = 'tests/browser/phoneFit.test.ts';
  const short = 'tests/browser/offMachine.test.ts';

  it('a clean clone (no cache) starts the longest recorded file first, and a file not recorded before both', async () => {
    expect((recorded as Record<string, number>)[long]).toBeGreaterThan((recorded as Record<string, number>)[short]);
    expect(await order([spec('browser', short, 1), spec('browser', long, 1)])).toEqual([long, short]);
    expect(await order([spec('browser', short, 1), spec('browser', long, 1), spec('browser', 'tests/browser/new.test.ts', 1)])).toEqual([
      'tests/browser/new.test.ts',
      long,
      short,
    ]);
  });

  it("Vitest's cache wins over the record, and a file that failed there runs first", async () => {
    const files = [spec('browser', long, 1), spec('browser', short, 1)];
    expect(await order(files, { [`browser:${short}`]: { duration: 999_999, failed: false } })).toEqual([short, long]);
    expect(await order(files, { [`browser:${short}`]: { duration: 1, failed: true }, [`browser:${long}`]: { duration: 9, failed: false } })).toEqual([
      short,
      long,
    ]);
  });

  it('groups and projects keep their order: the browser group after the others, whatever the lengths', async () => {
    const api = 'tests/api/malformedInput.test.ts';
    expect(await order([spec('browser', long, 1), spec('api', 'tests/api/addressBook.test.ts'), spec('api', api)])).toEqual([
      api,
      'tests/api/addressBook.test.ts',
      long,
    ]);
  });
});
