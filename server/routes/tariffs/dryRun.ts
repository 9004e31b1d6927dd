/**
 * The `dry_run` form field of every tariff upload (issue 20, docs/tariff-checks.md): 1 checks the file
 * and answers what a publish would do, storing nothing; 0 or absent publishes. The answers of both are
 * in ./answers.ts (`storeOrCheck`).
 */
export const dryRunField = { type: 'integer', enum: [0, 1], default: 0, description: '1: check the file and store nothing' } as const;
