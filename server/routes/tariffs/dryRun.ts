import { bool, discriminatorOf, int, list, nullable, num, numN, obj, sharedSchema, str, type JsonSchema } from '../../lib/answers.js';

/**
 * The `dry_run` form field of every tariff upload (issue 20, docs/tariff-checks.md): 1 checks the file
 * and answers what a publish would do, storing nothing; 0 or absent publishes.
 */
export const dryRunField = { type: 'integer', enum: [0, 1], default: 0, description: '1: check the file and store nothing' } as const;

const shownRow: JsonSchema = { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } };

/**
 * The repricing of the carrier's recent requests with the proposed set (server/imports/impact.ts,
 * docs/tariff-checks.md "Impact"); null when no request is in the sample.
 */
export const impactAnswer: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'considered',
    'repriced',
    'unchanged',
    'not_priceable',
    'newly_priceable',
    'median_change_percent',
    'max_increase_percent',
    'max_decrease_percent',
    'requests',
  ],
  properties: {
    considered: int,
    repriced: int,
    unchanged: int,
    not_priceable: int,
    newly_priceable: int,
    median_change_percent: numN,
    max_increase_percent: numN,
    max_decrease_percent: numN,
    requests: list({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'code', 'created_on', 'before', 'after', 'change_percent'],
      properties: { id: int, code: str, created_on: str, before: num, after: num, change_percent: num },
    }),
  },
};

/** `{status: true, data: {dry_run: true, errors, summary, changes, impact}}`: the answer of a check. */
export const dryRunAnswer: JsonSchema = {
  type: 'object',
  required: ['status', 'data'],
  additionalProperties: false,
  properties: {
    status: bool,
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['dry_run', 'errors', 'summary', 'changes', 'impact'],
      properties: {
        dry_run: { type: 'boolean', const: true },
        errors: list({
          type: 'object',
          additionalProperties: false,
          required: ['row', 'column', 'message'],
          properties: { row: int, column: str, message: str },
        }),
        summary: obj({ added: int, changed: int, removed: int, unchanged: int }),
        changes: list({
          type: 'object',
          additionalProperties: false,
          required: ['key', 'before', 'after'],
          properties: { key: shownRow, before: nullable(shownRow), after: nullable(shownRow) },
        }),
        impact: nullable(impactAnswer),
      },
    },
  },
};

/** The top-level property telling a store route's two answers apart (issue 33): a check, or what was published. */
export const OUTCOME = { checked: 'checked', published: 'published' } as const;

const withOutcome = (answer: JsonSchema, outcome: string, description: string): JsonSchema => ({
  ...answer,
  required: ['outcome', ...((answer.required as string[] | undefined) ?? [])],
  properties: { outcome: { type: 'string', enum: [outcome], description }, ...(answer.properties as Record<string, JsonSchema>) },
});

/**
 * A store route's 200: a check's answer (`dry_run=1`) or the publish's, told apart by `outcome` (issue 33): a
 * oneOf with a discriminator over named schemas (`TariffCheck` and the publish's `name`), so a generated client
 * narrows on it. Before, the two were an anyOf to be told apart by `message` or `data.dry_run`; both stay.
 */
export const storeOrCheck = (publish: JsonSchema, name: string): JsonSchema => ({
  oneOf: [
    sharedSchema({
      $id: 'TariffCheck',
      title: 'TariffCheck',
      ...withOutcome(dryRunAnswer, OUTCOME.checked, 'A dry run: nothing was stored; `data` is the check.'),
    }),
    sharedSchema({ $id: name, title: name, ...withOutcome(publish, OUTCOME.published, 'Stored and published.') }),
  ],
  discriminator: discriminatorOf('outcome', { [OUTCOME.checked]: 'TariffCheck', [OUTCOME.published]: name }),
});
